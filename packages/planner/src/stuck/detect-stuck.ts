import type { StuckPattern } from "@waddle/protocol";
import type { TrajectoryStep } from "../run/run-state.js";

/** What repeated, as `stuck_detected` reports it. */
export interface StuckFinding {
  pattern: StuckPattern;
  tools: string[];
  count: number;
  /** "search_docs called 3 times with the same arguments" */
  message: string;
}

/** One step as the detector reads it: a single tool call, or anything else that breaks a row. */
type Entry =
  | { kind: "call"; tool: string; key: string; errorKey: string | undefined; empty: boolean }
  | { kind: "other" };

/**
 * Looks for a loop that the run's newest step completes (docs/guides/stuck-runs.md), from step `since` on:
 * the same call `repeats` times; two calls taking turns for `max(2, repeats - 1)` cycles; one tool failing
 * with the same error `repeats` times; `repeats` empty results in a row. Only single tool calls the model
 * chose count: auto-seq steps, notes, refused actions and `ignored` tools (write_todos) are left out;
 * parallel plans and tasks are not calls but end a row. Pure: the caller decides what to do.
 */
export function detectStuck(input: {
  steps: readonly TrajectoryStep[];
  repeats: number;
  since: number;
  ignored?: ReadonlySet<string>;
}): StuckFinding | undefined {
  const { steps, repeats, since, ignored } = input;
  const newest = steps.at(-1);
  if (newest === undefined || newest.index < since || !isCounted(newest, ignored)) return undefined;
  const entries: Entry[] = [];
  for (const step of steps.slice(since)) {
    if (isCounted(step, ignored)) entries.push(toEntry(step));
  }
  const last = entries.at(-1);
  if (last === undefined || last.kind !== "call") return undefined;
  return (
    findError(entries, last, repeats) ??
    findRepeat(entries, last, repeats) ??
    findAlternate(entries, repeats) ??
    findEmpty(entries, repeats)
  );
}

type Call = Extract<Entry, { kind: "call" }>;

function findError(entries: readonly Entry[], last: Call, repeats: number): StuckFinding | undefined {
  if (last.errorKey === undefined) return undefined;
  const count = entries.filter((entry) => entry.kind === "call" && entry.errorKey === last.errorKey).length;
  if (count < repeats) return undefined;
  const code = last.errorKey.slice(last.tool.length + 1).split("\n")[0];
  return {
    pattern: "error",
    tools: [last.tool],
    count,
    message: `${last.tool} failed ${count} times with the same error (${code})`,
  };
}

function findRepeat(entries: readonly Entry[], last: Call, repeats: number): StuckFinding | undefined {
  const count = entries.filter((entry) => entry.kind === "call" && entry.key === last.key).length;
  if (count < repeats) return undefined;
  return {
    pattern: "repeat",
    tools: [last.tool],
    count,
    message: `${last.tool} called ${count} times with the same arguments`,
  };
}

/** A, B, A, B at the end: two different calls (tool and args) taking turns, nothing between them. */
function findAlternate(entries: readonly Entry[], repeats: number): StuckFinding | undefined {
  const cycles = Math.max(2, repeats - 1);
  const tail: Call[] = [];
  for (let index = entries.length - 1; index >= 0; index -= 1) {
    const entry = entries[index]!;
    if (entry.kind !== "call") break;
    const expected = tail.length >= 2 ? tail[tail.length - 2]! : undefined;
    if (expected !== undefined && entry.key !== expected.key) break;
    if (tail.length === 1 && entry.key === tail[0]!.key) break;
    tail.push(entry);
  }
  const count = Math.floor(tail.length / 2);
  if (count < cycles) return undefined;
  const [second, first] = [tail[0]!, tail[1]!];
  const tools = first.tool === second.tool ? [first.tool] : [first.tool, second.tool];
  const who = tools.length === 1 ? `${first.tool} (two argument sets)` : `${first.tool} and ${second.tool}`;
  return {
    pattern: "alternate",
    tools,
    count,
    message: `${who} alternated ${count} times with the same arguments`,
  };
}

function findEmpty(entries: readonly Entry[], repeats: number): StuckFinding | undefined {
  const row: string[] = [];
  for (let index = entries.length - 1; index >= 0; index -= 1) {
    const entry = entries[index]!;
    if (entry.kind !== "call" || !entry.empty) break;
    row.unshift(entry.tool);
  }
  const count = row.length;
  if (count < repeats) return undefined;
  const tools = [...new Set(row)];
  return {
    pattern: "empty",
    tools,
    count,
    message: `${count} tool results in a row were empty (${tools.join(", ")})`,
  };
}

function isCounted(step: TrajectoryStep, ignored: ReadonlySet<string> | undefined): boolean {
  if (step.note === true || step.refused !== undefined || step.source === "auto_seq") return false;
  return ignored === undefined || !ignored.has(step.next_node);
}

function toEntry(step: TrajectoryStep): Entry {
  if (step.branches !== undefined || step.next_node.startsWith("task.")) return { kind: "other" };
  const tool = step.next_node;
  const failure = step.failure;
  return {
    kind: "call",
    tool,
    key: `${tool}\n${getStableJson(step.args)}`,
    errorKey: failure === undefined ? undefined : `${tool}\n${failure.error_code}\n${failure.message}`,
    empty: failure === undefined && isEmptyResult(step.observation),
  };
}

/**
 * Nothing in it: null, a blank string, `[]`, `{}`, or an object whose every value is empty
 * (`{"results": []}`). Numbers and booleans are results (`{"results": [], "total": 0}` is not empty).
 */
export function isEmptyResult(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === "string") return value.trim().length === 0;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === "object") return Object.values(value).every((item) => isEmptyResult(item));
  return false;
}

/** JSON with object keys sorted, so that `{a, b}` and `{b, a}` are the same arguments. */
export function getStableJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (typeof item !== "object" || item === null || Array.isArray(item)) return item;
    const record = item as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(record)
        .sort()
        .map((key) => [key, record[key]]),
    );
  });
}
