import { getValueDigest, clipText } from "../util/compact-value.js";
import type { TodoItem } from "../run/todo-state.js";

/** Data of a `reasoning` event: a short operational summary, never raw chain-of-thought. */
export interface ReasoningSummary {
  phase: "plan" | "act" | "obs" | "reflect";
  summary: string;
}

export const MAX_REFLECTION_CHARS = 160;
const MAX_SUMMARY_CHARS = 200;

export type ReasoningSummaryInput =
  | { phase: "plan"; todos: readonly TodoItem[]; focus?: string }
  | { phase: "act"; tool: string; args?: unknown }
  | { phase: "obs"; tool: string; observation?: unknown; failure?: { error_code: string; message: string } }
  | { phase: "reflect"; text: string };

/** Builds the `reasoning {phase, summary}` data for one phase of an iteration. */
export function createReasoningSummary(input: ReasoningSummaryInput): ReasoningSummary {
  switch (input.phase) {
    case "plan":
      return { phase: "plan", summary: createPlanSummary(input.todos, input.focus) };
    case "act":
      return { phase: "act", summary: createActSummary(input.tool, input.args) };
    case "obs":
      return { phase: "obs", summary: createObsSummary(input) };
    case "reflect":
      return { phase: "reflect", summary: createReflectSummary(input.text) };
  }
}

/** "2/4 done · now: fetch the report" (or "next: …" when nothing is in progress). */
export function createPlanSummary(todos: readonly TodoItem[], focus?: string): string {
  const done = todos.filter((todo) => todo.status === "completed").length;
  const current = todos.find((todo) => todo.status === "in_progress");
  const next = todos.find((todo) => todo.status === "pending");
  let summary = `${done}/${todos.length} done`;
  if (current !== undefined) summary += ` · now: ${current.content}`;
  else if (next !== undefined) summary += ` · next: ${next.content}`;
  if (focus !== undefined && focus.length > 0) summary += ` · focus: ${focus}`;
  return clipText(oneLine(summary), MAX_SUMMARY_CHARS);
}

/** "calling search with {query, limit}": the arg names, never their values. */
export function createActSummary(tool: string, args?: unknown): string {
  const shown = typeof args === "object" && args !== null && !Array.isArray(args) ? listKeys(args, 8) : "";
  return clipText(`calling ${tool} with {${shown}}`, MAX_SUMMARY_CHARS);
}

/** A one-line digest of what a tool returned or why it failed. */
export function createObsSummary(input: {
  tool: string;
  observation?: unknown;
  failure?: { error_code: string; message: string };
}): string {
  if (input.failure !== undefined) {
    return clipText(
      oneLine(`${input.tool} failed (${input.failure.error_code}): ${input.failure.message}`),
      MAX_SUMMARY_CHARS,
    );
  }
  return clipText(`${input.tool} → ${describeValue(input.observation)}`, MAX_SUMMARY_CHARS);
}

/** The first sentence of an operational reflection, on one line, at most 160 characters. */
export function createReflectSummary(text: string): string {
  const line = oneLine(text);
  const end = line.search(/[.!?](\s|$)/);
  const sentence = end === -1 ? line : line.slice(0, end + 1);
  return clipText(sentence, MAX_REFLECTION_CHARS);
}

function describeValue(value: unknown): string {
  if (value === undefined || value === null) return "no result";
  if (Array.isArray(value)) return `${value.length} item${value.length === 1 ? "" : "s"}`;
  if (typeof value === "object") {
    return `{${listKeys(value, 6)}}`;
  }
  if (typeof value === "string") {
    return value.length <= 60 ? JSON.stringify(oneLine(value)) : `text (${value.length} chars)`;
  }
  return getValueDigest(value, 60);
}

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * "a, b, c, +2": the first `max` own keys (as Object.keys lists them) and how many more. for…in and no
 * slice/join: this runs twice a step, and allocates only the string.
 */
function listKeys(object: object, max: number): string {
  let shown = "";
  let count = 0;
  for (const key in object) {
    if (!hasOwn.call(object, key)) continue;
    if (count < max) shown += count === 0 ? key : `, ${key}`;
    count += 1;
  }
  return count > max ? `${shown}, +${count - max}` : shown;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
