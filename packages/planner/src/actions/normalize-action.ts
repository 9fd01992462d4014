import type { PlannerAction } from "@waddle/protocol";
import { PlannerError } from "../errors/planner-error.js";
import { isPlaceholderAnswer } from "./placeholders.js";
import { salvageJsonValues, type SalvagedValue, type SalvagePath } from "./salvage-json.js";
import { createSalvageNote, type SalvageNote } from "./salvage-rules.js";

export type ActionFormat = "auto" | "unified" | "legacy";

export interface NormalizeActionOptions {
  /** `unified` refuses legacy and hybrid shapes (strict mode); `auto` and `legacy` accept everything. */
  format?: ActionFormat;
  /** Catalog tool names: a tool that happens to be called like a synonym (`finish`) stays a tool. */
  toolNames?: ReadonlySet<string>;
}

export interface NormalizedAction {
  action: PlannerAction;
  /** The legacy `thought`, when the reply carried one. */
  thought?: string;
  /** How the JSON was found in the text (`direct` when the reply was clean JSON). */
  salvage: SalvagePath | "object";
  /** Which rewrites were applied: `legacy`, `hybrid`, `synonym:plan`, `wrapper`, … */
  rewrites: string[];
  /**
   * Everything recovered without asking the model again, with what it did: the salvage path when the
   * reply was not clean JSON, string repairs, then each rewrite (docs/normalization.md).
   */
  notes: SalvageNote[];
  /** The other actions of a reply that held several (a JSON array): offered back, never run. */
  alternates?: PlannerAction[];
  /** Parallel steps dropped as malformed: offered back in the step's observation. */
  droppedSteps?: unknown[];
}

type Json = Record<string, unknown>;

/** What the rewrites of one reply collect. */
interface Rewrites {
  rules: string[];
  notes: SalvageNote[];
  droppedSteps?: unknown[];
}

function rewrite(into: Rewrites, rule: string, detail?: string): void {
  into.rules.push(rule);
  into.notes.push(createSalvageNote(rule, detail));
}

const ANSWER_KEYS = ["answer", "raw_answer", "final_answer", "text", "response", "content"] as const;
/** Keys that hold an answer even on an object with no `next_node` (`{"answer": …}`). */
const BARE_ANSWER_KEYS = ["answer", "raw_answer", "final_answer"] as const;
const TERMINAL_SYNONYMS = new Set(["finish", "final", "final_answer", "respond", "answer"]);
const WRAPPER_KEYS = ["action", "response", "output", "result", "data"] as const;
const TOOL_KEYS = ["tool", "tool_name", "name", "function", "action", "node"] as const;
const TOOL_ARG_KEYS = ["args", "arguments", "parameters", "tool_input", "action_input", "input"] as const;
/** Other names weak models give `next_node`. */
const NEXT_NODE_ALIASES = ["nextNode", "next_action", "nextAction", "next_tool"] as const;
/** Opcodes and their synonyms, by their loose key (`Final Response`, `FINAL-RESPONSE` → `final_response`). */
const OPCODE_KEYS: ReadonlyMap<string, string> = new Map(
  ["final_response", "parallel", "plan", "task", "task.subagent", "task.tool", ...TERMINAL_SYNONYMS].map(
    (name) => [name, name],
  ),
);

/**
 * The single entry point for every LLM reply: unified actions and all opcodes, synonyms (`plan`, `task`
 * with `mode`, `raw_answer`), legacy and hybrid shapes, and actions salvaged from prose, fenced blocks and
 * Python-literal dicts. Returns the canonical `{next_node, args}`; throws `PlannerError` otherwise, with
 * `truncated_reply` for a reply cut off inside its action (never executed half-written).
 */
export function normalizeAction(raw: unknown, options: NormalizeActionOptions = {}): PlannerAction {
  return normalizeActionDetailed(raw, options).action;
}

/** `normalizeAction` with how the action was recovered, and the legacy `thought` if any. */
export function normalizeActionDetailed(
  raw: unknown,
  options: NormalizeActionOptions = {},
): NormalizedAction {
  if (typeof raw !== "string") {
    if (Array.isArray(raw)) {
      const fromArray = fromActionArray(raw, { path: "object" }, options);
      if (fromArray !== undefined) return fromArray;
    }
    return fromObjectValue(raw, { path: "object" }, options);
  }
  const candidates = salvageJsonValues(raw);
  const only = candidates.length === 1 ? candidates[0] : undefined;
  // The usual reply is one clean JSON object: nothing to choose between.
  if (only !== undefined && isRecord(only.value) && only.path !== "truncated")
    return fromObjectValue(only.value, only, options);
  const objects = candidates.filter((candidate) => isRecord(candidate.value));
  if (objects.length === 0) {
    const array = candidates.find(
      (candidate) => Array.isArray(candidate.value) && candidate.path !== "truncated",
    );
    const fromArray =
      array === undefined ? undefined : fromActionArray(array.value as unknown[], array, options);
    if (fromArray !== undefined) return fromArray;
    throw new PlannerError(
      "unparseable_action",
      'The reply holds no JSON object. Reply with exactly one JSON object: {"next_node": "<tool or opcode>", "args": {...}}.',
      { details: { preview: raw.slice(0, 200) } },
    );
  }
  const best = pickActionShaped(objects.map((candidate) => candidate.value as Json));
  const chosen = objects[best] ?? objects[0];
  if (chosen?.path === "truncated") throw truncatedReply(raw);
  const result = fromObjectValue(chosen?.value, chosen ?? { path: "direct" }, options);
  // Several whole actions in one reply (JSON lines): the first runs, the others are offered back.
  const others = objects.filter(
    (candidate) =>
      candidate !== chosen &&
      candidate.path !== "truncated" &&
      typeof (candidate.value as Json).next_node === "string",
  );
  if (others.length > 0) {
    const alternates = toAlternates(others.map((candidate) => candidate.value));
    if (alternates.length > 0) {
      result.alternates = alternates;
      result.rewrites.push("several_actions");
      result.notes.push(
        createSalvageNote("several_actions", describeAlternates(result.action, alternates.length)),
      );
    }
  }
  return result;
}

/**
 * A JSON array of actions (weak models send a whole plan at once): the first action-shaped element is the
 * action, the others that normalize are alternates, offered back to the model and never run unasked.
 */
function fromActionArray(
  items: readonly unknown[],
  found: { path: SalvagedValue["path"] | "object"; repairs?: SalvagedValue["repairs"] },
  options: NormalizeActionOptions,
): NormalizedAction | undefined {
  const actions = items.filter(
    (item): item is Json => isRecord(item) && (actionScore(item) > 0 || hasBareAnswer(item)),
  );
  const [first, ...rest] = actions;
  if (first === undefined) return undefined;
  const result = fromObjectValue(first, found, options);
  const alternates = toAlternates(rest);
  if (alternates.length > 0) result.alternates = alternates;
  result.rewrites.push("action_array");
  result.notes.push(createSalvageNote("action_array", describeAlternates(result.action, alternates.length)));
  return result;
}

function toAlternates(values: readonly unknown[]): PlannerAction[] {
  const alternates: PlannerAction[] = [];
  for (const value of values) {
    try {
      alternates.push(fromObjectValue(value, { path: "object" }, {}).action);
    } catch (error) {
      if (!(error instanceof PlannerError)) throw error;
    }
  }
  return alternates;
}

function describeAlternates(action: PlannerAction, count: number): string {
  if (count === 0) return `one action was read from a JSON array: ${action.next_node} runs`;
  return `${action.next_node} runs; ${count} other action${count === 1 ? " is" : "s are"} offered back as alternates, not run`;
}

/**
 * A reply that ends inside an unfinished object was cut off: its brackets can be closed, but what it would
 * have said cannot be known (`"q": "unterm` is not the query the model meant), so nothing of it runs.
 */
function truncatedReply(raw: string): PlannerError {
  return new PlannerError(
    "truncated_reply",
    "The reply was cut off before its JSON action was complete (the output token limit), so none of it was " +
      "run. Send the whole action again, shorter: brief args, and a final answer that fits.",
    { details: { chars: raw.length } },
  );
}

function fromObjectValue(
  value: unknown,
  found: { path: NormalizedAction["salvage"]; repairs?: SalvagedValue["repairs"] },
  options: NormalizeActionOptions,
): NormalizedAction {
  if (!isRecord(value)) {
    throw new PlannerError("invalid_action", 'An action must be a JSON object {"next_node", "args"}.', {
      details: { type: Array.isArray(value) ? "array" : typeof value },
    });
  }
  const salvage = found.path;
  const rewrites: Rewrites = { rules: [], notes: [] };
  const data = unwrap(value, rewrites);
  if (options.format === "unified") assertUnified(data);
  const thought = typeof data.thought === "string" ? data.thought : undefined;
  const action = toAction(data, rewrites, options.toolNames);
  // The same rules as the protocol's PlannerAction schema, checked by hand: this runs on every step.
  const node = action.next_node;
  if (typeof node !== "string" || node.length === 0) {
    throw new PlannerError("invalid_action", 'The action needs a non-empty "next_node" string.', {
      details: { next_node: node === undefined ? "missing" : typeof node },
    });
  }
  const args = action.args === undefined ? {} : action.args;
  if (!isRecord(args)) {
    throw new PlannerError("invalid_action", `"args" of "${node}" must be a JSON object.`, {
      details: { node, type: Array.isArray(args) ? "array" : typeof args },
    });
  }
  // `action` already has exactly these two fields when its args were an object: reuse it.
  const canonical = action.args === args ? (action as PlannerAction) : { next_node: node, args };
  const notes =
    salvage === "direct" || salvage === "object"
      ? rewrites.notes
      : [createSalvageNote(salvage), ...rewrites.notes];
  if (found.repairs !== undefined) notes.unshift(...found.repairs.map((repair) => createSalvageNote(repair)));
  const result: NormalizedAction = { action: canonical, salvage, rewrites: rewrites.rules, notes };
  if (thought !== undefined && thought.length > 0) result.thought = thought;
  if (rewrites.droppedSteps !== undefined) result.droppedSteps = rewrites.droppedSteps;
  return result;
}

/** Index of the most action-like object: `next_node` beats legacy keys beats tool-call shapes. */
function pickActionShaped(objects: readonly Json[]): number {
  let bestIndex = 0;
  let bestScore = -1;
  objects.forEach((object, index) => {
    const score = actionScore(object);
    if (score > bestScore) {
      bestScore = score;
      bestIndex = index;
    }
  });
  return bestIndex;
}

function actionScore(object: Json): number {
  if (typeof object.next_node === "string") return 5;
  if ("next_node" in object) return 4;
  if (Array.isArray(object.plan)) return 3;
  if (WRAPPER_KEYS.some((key) => isRecord(object[key]) && "next_node" in (object[key] as Json))) return 3;
  if ("thought" in object) return 2;
  if (TOOL_KEYS.some((key) => typeof object[key] === "string")) return 1;
  return 0;
}

/** `{"action": {"next_node": …}}` and similar one-level wrappers. */
function unwrap(value: Json, rewrites: Rewrites): Json {
  if ("next_node" in value || "plan" in value) return value;
  for (const key of WRAPPER_KEYS) {
    const inner = value[key];
    if (isRecord(inner) && ("next_node" in inner || "plan" in inner)) {
      rewrite(rewrites, "wrapper", `the action was unwrapped from "${key}"`);
      return inner;
    }
  }
  return value;
}

function assertUnified(data: Json): void {
  const extra = Object.keys(data).filter((key) => key !== "next_node" && key !== "args");
  if (typeof data.next_node !== "string" || extra.length > 0) {
    throw new PlannerError(
      "invalid_action",
      'Unified format only: reply with exactly {"next_node": "<tool or opcode>", "args": {...}} and no other keys.',
      { details: { extraKeys: extra } },
    );
  }
}

function toAction(input: Json, rewrites: Rewrites, toolNames: ReadonlySet<string> | undefined): Json {
  let data = input;
  if (!("next_node" in data)) {
    const alias = NEXT_NODE_ALIASES.find((key) => typeof data[key] === "string");
    if (alias !== undefined) {
      const { [alias]: node, ...rest } = data;
      data = { next_node: node, ...rest };
      rewrite(rewrites, "next_node_alias", `"${alias}" was read as next_node`);
    }
  }
  if ("thought" in data) rewrite(rewrites, "legacy");
  const plan = data.plan;
  const node = data.next_node;
  if (Array.isArray(plan) && plan.length > 0 && node !== "final_response") {
    rewrite(rewrites, "legacy_plan");
    return toParallel({ steps: plan, join: data.join }, rewrites);
  }
  if (node === null || (node === undefined && "thought" in data)) {
    rewrite(rewrites, "legacy_terminal");
    return toFinal(data, rewrites);
  }
  if (typeof node !== "string" || node.trim().length === 0) return fromNoNextNode(data, rewrites, toolNames);
  const args = readArgs(data, rewrites);
  return canonicalize({ node: node.trim(), args, data, rewrites, toolNames });
}

/**
 * No usable `next_node`: a tool-call shape naming a tool (`{name, arguments}`), else an answer wherever it
 * is (`{"answer": …}`, `{"args": {"answer": …}}`, a `next_node` that is not a string beside an answer),
 * else any tool-call shape; otherwise the object is not an action.
 */
function fromNoNextNode(data: Json, rewrites: Rewrites, toolNames: ReadonlySet<string> | undefined): Json {
  const nodeKey = TOOL_KEYS.find((key) => typeof data[key] === "string");
  const named = nodeKey === undefined ? undefined : (data[nodeKey] as string);
  if (named !== undefined && (toolNames === undefined || toolNames.has(named))) {
    return fromToolCallShape(data, rewrites, toolNames);
  }
  if (hasBareAnswer(data)) {
    rewrite(rewrites, "bare_answer");
    const { next_node: _node, args: _args, thought: _thought, ...rest } = data;
    return toFinal({ args: isRecord(data.args) ? { ...data.args, ...rest } : rest }, rewrites);
  }
  if (isRecord(data.args) && hasBareAnswer(data.args)) {
    const shown = data.next_node === undefined ? "missing" : JSON.stringify(data.next_node);
    rewrite(
      rewrites,
      "answer_without_next_node",
      `next_node was ${shown} and args held an answer: read as final_response`,
    );
    return toFinal({ args: data.args }, rewrites);
  }
  return fromToolCallShape(data, rewrites, toolNames);
}

/** True when an object holds an answer under `answer`, `raw_answer` or `final_answer`. */
function hasBareAnswer(data: Json): boolean {
  return BARE_ANSWER_KEYS.some((key) => readAnswerValue(data[key]) !== undefined);
}

function canonicalize(input: {
  node: string;
  args: unknown;
  data: Json;
  rewrites: Rewrites;
  toolNames: ReadonlySet<string> | undefined;
}): Json {
  const { args, data, rewrites } = input;
  let { node } = input;
  if (input.toolNames?.has(node) === true) return { next_node: node, args: requireArgsObject(args, node) };
  const opcode = OPCODE_KEYS.get(toToolKey(node));
  if (opcode !== undefined && opcode !== node) {
    rewrite(rewrites, "opcode_spelling", `"${node}" was read as ${opcode}`);
    node = opcode;
  }
  if (node === "final_response" || TERMINAL_SYNONYMS.has(node)) {
    if (node !== "final_response") rewrite(rewrites, `synonym:${node}`);
    return toFinal({ ...data, args }, rewrites);
  }
  if (node === "parallel" || node === "plan") {
    if (node === "plan") rewrite(rewrites, "synonym:plan");
    return toParallel(Array.isArray(args) ? { steps: args } : (args as Json), rewrites);
  }
  if (node === "task") return toTask(requireArgsObject(args, node), rewrites);
  if (node === "task.subagent" || node === "task.tool") {
    return { next_node: node, args: loosenTaskArgs(node, requireArgsObject(args, node), rewrites) };
  }
  const spelled = input.toolNames === undefined ? undefined : findToolSpelling(node, input.toolNames);
  if (spelled !== undefined) {
    rewrite(rewrites, "tool_name_spelling", `"${node}" was read as the tool ${spelled}`);
    return { next_node: spelled, args: requireArgsObject(args, spelled) };
  }
  return { next_node: node, args: requireArgsObject(args, node) };
}

/**
 * The one catalog tool a misspelled name means: `functions.search` (the OpenAI tool-call prefix),
 * `Search`, `search-docs` for `search_docs`. Undefined when none or several match: an unknown tool is
 * never guessed.
 */
function findToolSpelling(node: string, toolNames: ReadonlySet<string>): string | undefined {
  const key = toToolKey(node.replace(/^(?:functions|tools|tool)[.:/]/i, ""));
  if (key.length === 0) return undefined;
  let found: string | undefined;
  for (const name of toolNames) {
    if (toToolKey(name) !== key) continue;
    if (found !== undefined) return undefined;
    found = name;
  }
  return found;
}

function toToolKey(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
}

/** `args`, parsed when a weak model sent it as a JSON string, or the hybrid top-level keys. */
function readArgs(data: Json, rewrites: Rewrites): unknown {
  let args = data.args;
  if (typeof args === "string" && /^\s*[[{]/.test(args)) {
    const parsed = getCompleteValue(args);
    if (parsed !== undefined) {
      rewrite(rewrites, "args_string");
      args = parsed.value;
    }
  }
  if (args === undefined || args === null) {
    const alias = TOOL_ARG_KEYS.find((key) => key !== "args" && isRecord(data[key]));
    if (alias !== undefined) {
      rewrite(rewrites, "args_alias", `"${alias}" beside next_node was read as args`);
      return data[alias];
    }
    const loose = Object.entries(data).filter(
      ([key]) => !["next_node", "args", "thought", "plan", "join"].includes(key),
    );
    if (loose.length > 0) {
      rewrite(rewrites, "hybrid");
      return Object.fromEntries(loose);
    }
    return {};
  }
  return args;
}

function requireArgsObject(args: unknown, node: string): Json {
  if (isRecord(args)) return args;
  throw new PlannerError("invalid_action", `"args" of "${node}" must be a JSON object.`, {
    details: { node, type: Array.isArray(args) ? "array" : typeof args },
  });
}

/**
 * A `final_response` as `{answer, …}`. `raw_answer` wins over `answer` when both hold different text
 * (PenguiFlow's finish path); the text that loses is kept under `extra`, never dropped. A stand-in answer
 * gives way to a real one under another key (`text`, `content`, a top-level `answer`).
 */
function toFinal(data: Json, rewrites: Rewrites): Json {
  const rawArgs = data.args;
  const args: Json = isRecord(rawArgs) ? { ...rawArgs } : {};
  if (typeof rawArgs === "string") args.answer = rawArgs;
  else if (Array.isArray(rawArgs)) {
    const lines = readArgsLines(rawArgs);
    if (lines !== undefined) {
      args.answer = lines.text;
      rewrite(rewrites, "args_lines", lines.detail);
    }
  }
  const current = getUsableAnswer(args.answer);
  const raw = getUsableAnswer(args.raw_answer) ?? getUsableAnswer(data.raw_answer);
  if (raw !== undefined) {
    setAnswer(args, raw, rewrites);
    if (current === undefined) rewrite(rewrites, "synonym:raw_answer");
  } else if (current === undefined) {
    // An empty or placeholder answer beside a real one under another key (text, content, …): the other.
    const key = ANSWER_KEYS.find((name) => name !== "answer" && getUsableAnswer(args[name]) !== undefined);
    const topKey = ANSWER_KEYS.find((name) => getUsableAnswer(data[name]) !== undefined);
    if (key !== undefined) {
      setAnswer(args, getUsableAnswer(args[key]), rewrites);
      rewrite(rewrites, `synonym:${key}`);
    } else if (topKey !== undefined) {
      setAnswer(args, getUsableAnswer(data[topKey]), rewrites);
      rewrite(rewrites, "hybrid");
    } else {
      const stand = readAnswerValue(args.answer);
      if (stand !== undefined && typeof args.answer !== "string") setAnswer(args, stand, rewrites);
    }
  } else if (typeof args.answer !== "string") setAnswer(args, current, rewrites);
  if (raw !== undefined || typeof args.raw_answer === "string") delete args.raw_answer;
  keepOtherAnswers(args, data, { rewrites, rawWins: raw !== undefined });
  return { next_node: "final_response", args };
}

/**
 * `answer` and `raw_answer` texts (in args or beside them) that differ from the chosen answer, kept under
 * `extra` by their key: the model wrote them, so they are not dropped.
 */
function keepOtherAnswers(args: Json, data: Json, into: { rewrites: Rewrites; rawWins: boolean }): void {
  const chosen = args.answer;
  const given = isRecord(data.args) ? data.args : {};
  const others: Json = {};
  for (const [key, value] of [
    ["answer", given.answer],
    ["raw_answer", given.raw_answer],
    ["answer", data.answer],
    ["raw_answer", data.raw_answer],
  ] as const) {
    const text = getUsableAnswer(value)?.text;
    if (text === undefined || text === chosen || Object.values(others).includes(text)) continue;
    others[key in others ? `${key}_top_level` : key] = text;
  }
  const keys = Object.keys(others);
  if (keys.length === 0) return;
  const extra = args.extra;
  args.extra = isRecord(extra)
    ? { ...extra, ...others }
    : extra === undefined
      ? others
      : { extra, ...others };
  const kept = `extra.${keys.join(", extra.")}`;
  rewrite(
    into.rewrites,
    "answer_texts_kept",
    into.rawWins
      ? `answer and raw_answer differ: raw_answer is the answer (PenguiFlow's precedence); the other text is kept under ${kept}`
      : `the answer was given twice with different texts: args.answer is the answer; the other is kept under ${kept}`,
  );
}

/** A list given as the whole args (`["Line one.", "", "Line two."]`): its non-empty strings, one a line. */
function readArgsLines(list: readonly unknown[]): { text: string; detail: string } | undefined {
  const lines = list.filter((item): item is string => typeof item === "string" && item.trim().length > 0);
  if (lines.length === 0) return undefined;
  const dropped = list.length - lines.length;
  const detail =
    dropped === 0
      ? "args given as a list of lines were joined as the answer"
      : `args given as a list of lines were joined as the answer; ${dropped} empty or non-text item${dropped === 1 ? " was" : "s were"} dropped`;
  return { text: lines.join("\n"), detail };
}

/** An answer value that is text and not a stand-in (`<answer>`, `TBD`). */
function getUsableAnswer(value: unknown): AnswerValue | undefined {
  const found = readAnswerValue(value);
  return found === undefined || isPlaceholderAnswer(found.text) ? undefined : found;
}

interface AnswerValue {
  text: string;
  /** How a value that was not a string became one. */
  rule?: "answer_lines" | "answer_unwrapped" | "answer_coerced";
}

/** An answer value as text: a string, a list of lines (joined), `{text|content|answer}`, a number. */
function readAnswerValue(value: unknown): AnswerValue | undefined {
  if (typeof value === "string") return value.trim().length > 0 ? { text: value } : undefined;
  if (typeof value === "number" || typeof value === "boolean") {
    return { text: String(value), rule: "answer_coerced" };
  }
  if (Array.isArray(value)) {
    if (value.length === 0 || !value.every((line) => typeof line === "string" || typeof line === "number")) {
      return undefined;
    }
    const text = value.map(String).join("\n");
    return text.trim().length > 0 ? { text, rule: "answer_lines" } : undefined;
  }
  if (isRecord(value)) {
    for (const key of ["text", "content", "answer", "markdown", "value"]) {
      const inner = value[key];
      if (typeof inner === "string" && inner.trim().length > 0)
        return { text: inner, rule: "answer_unwrapped" };
    }
  }
  return undefined;
}

function setAnswer(args: Json, value: AnswerValue | undefined, rewrites: Rewrites): void {
  if (value === undefined) return;
  args.answer = value.text;
  if (value.rule !== undefined) rewrite(rewrites, value.rule);
}

function toParallel(args: Json, rewrites: Rewrites): Json {
  const out: Json = { ...args };
  if (Array.isArray(args.steps))
    out.steps = dropMalformedSteps(
      args.steps.map((step) => toStep(step, rewrites)),
      rewrites,
    );
  if (args.join === null || args.join === undefined) delete out.join;
  else {
    const join = toJoin(args.join, rewrites);
    if (join === undefined) delete out.join;
    else out.join = join;
  }
  return { next_node: "parallel", args: out };
}

/**
 * Steps that cannot be a call (no node, not an object) are dropped when at least one valid step remains,
 * and offered back in the observation; with none valid the plan is refused as it is (docs/parallel-joins.md).
 */
function dropMalformedSteps(steps: unknown[], rewrites: Rewrites): unknown[] {
  const isStep = (step: unknown) =>
    isRecord(step) && typeof step.node === "string" && step.node.trim().length > 0;
  const valid = steps.filter(isStep);
  if (valid.length === 0 || valid.length === steps.length) return steps;
  const dropped = steps.flatMap((step, index) => (isStep(step) ? [] : [{ index, step }]));
  const reasons = dropped.map(
    ({ index, step }) => `steps[${index}] (${isRecord(step) ? "no node" : "not an object"})`,
  );
  rewrite(
    rewrites,
    "parallel_step_dropped",
    `${reasons.join(", ")} ${dropped.length === 1 ? "was" : "were"} dropped; ${valid.length} valid step${valid.length === 1 ? " runs" : "s run"}`,
  );
  rewrites.droppedSteps = dropped.map(({ index, step }) => ({ index, step }));
  return valid;
}

/** A join: `{node, args, inject}`; one without a node is dropped (the model combines the results itself). */
function toJoin(join: unknown, rewrites: Rewrites): unknown {
  if (typeof join === "string" && join.trim().length > 0) {
    rewrite(rewrites, "join_shape");
    return { node: join.trim() };
  }
  if (!isRecord(join)) return join;
  const shaped = toStep(join, rewrites) as Json;
  if (typeof shaped.node !== "string" || shaped.node.trim().length === 0) {
    rewrite(rewrites, "join_dropped");
    return undefined;
  }
  const inject = shaped.inject;
  if (isRecord(inject) && Object.keys(inject).length === 1 && isRecord(inject.mapping)) {
    rewrite(rewrites, "inject_mapping");
    return { ...shaped, inject: inject.mapping };
  }
  return shaped;
}

/** `{node|tool|next_node|name, args|arguments}` → `{node, args, …}` for steps and joins. */
function toStep(step: unknown, rewrites: Rewrites): unknown {
  if (!isRecord(step)) return step;
  if (typeof step.node === "string" && (step.args === undefined || isRecord(step.args))) return step;
  const nodeKey = (["node", "tool", "next_node", "name"] as const).find(
    (key) => typeof step[key] === "string",
  );
  const argsKey = (["args", "arguments", "parameters"] as const).find((key) => isRecord(step[key]));
  if (nodeKey === undefined) return step;
  rewrite(rewrites, "step_shape");
  const out: Json = { node: step[nodeKey] };
  out.args = argsKey === undefined ? {} : step[argsKey];
  if (step.inject !== undefined) out.inject = step.inject;
  return out;
}

/**
 * `task` with `mode`, or without: a string `query` means a subagent (even beside a `tool`, whose job would
 * have no args), a `tool` alone a tool job.
 */
function toTask(args: Json, rewrites: Rewrites): Json {
  const { mode, ...rest } = args;
  const hasQuery = typeof rest.query === "string" && rest.query.trim().length > 0;
  const isTool =
    mode === "job" || mode === "tool" || (mode === undefined && !hasQuery && typeof rest.tool === "string");
  rewrite(rewrites, "synonym:task");
  if (mode === undefined && hasQuery && typeof rest.tool === "string") {
    rewrite(
      rewrites,
      "task_query_wins",
      `the task had a query and tool "${rest.tool}": the query wins, read as task.subagent (no ${rest.tool} job)`,
    );
    delete rest.tool;
    delete rest.tool_args;
  }
  if (isTool && rest.tool_args === undefined && isRecord(rest.args)) {
    rest.tool_args = rest.args;
    delete rest.args;
  }
  const opcode = isTool ? "task.tool" : "task.subagent";
  return { next_node: opcode, args: loosenTaskArgs(opcode, rest, rewrites) };
}

const MERGE_STRATEGIES: Readonly<Record<string, string>> = {
  HUMANGATED: "HUMAN_GATED",
  APPEND: "APPEND",
  REPLACE: "REPLACE",
};
const GROUP_REPORTS = new Set(["all", "any", "none"]);

/**
 * Task args as weak models write them: a missing name is derived from the query or the tool, merge
 * strategies are read case- and separator-insensitively (`human-gated`, `Human Gated`), `group_report` in
 * any case. Anything else is left for the task schema to check.
 */
function loosenTaskArgs(opcode: "task.subagent" | "task.tool", args: Json, rewrites: Rewrites): Json {
  let out = args;
  const name = args.name;
  if (typeof name !== "string" || name.trim().length === 0) {
    const derived = deriveTaskName(opcode, args);
    if (derived !== undefined) {
      out = { ...out, name: derived };
      rewrite(rewrites, "task_name_derived", `the background task had no name: "${derived}" was derived`);
    }
  }
  for (const key of ["merge_strategy", "group_merge_strategy"] as const) {
    const value = args[key];
    if (typeof value !== "string") continue;
    const canonical = MERGE_STRATEGIES[value.toUpperCase().replace(/[^A-Z]/g, "")];
    if (canonical !== undefined && canonical !== value) {
      out = { ...out, [key]: canonical };
      rewrite(rewrites, "merge_strategy_spelling", `${key} "${value}" was read as ${canonical}`);
    }
  }
  const report = args.group_report;
  if (typeof report === "string" && report !== report.trim().toLowerCase()) {
    const lower = report.trim().toLowerCase();
    if (GROUP_REPORTS.has(lower)) {
      out = { ...out, group_report: lower };
      rewrite(rewrites, "group_report_spelling", `group_report "${report}" was read as ${lower}`);
    }
  }
  return out;
}

const TASK_NAME_CHARS = 60;

function deriveTaskName(opcode: "task.subagent" | "task.tool", args: Json): string | undefined {
  if (opcode === "task.tool") {
    return typeof args.tool === "string" && args.tool.trim().length > 0
      ? `${args.tool.trim()} job`
      : undefined;
  }
  if (typeof args.query !== "string") return undefined;
  const line = args.query.trim().split("\n")[0]?.replace(/\s+/g, " ").trim() ?? "";
  if (line.length === 0) return undefined;
  if (line.length <= TASK_NAME_CHARS) return line;
  const cut = line.slice(0, TASK_NAME_CHARS);
  const space = cut.lastIndexOf(" ");
  return `${space > 20 ? cut.slice(0, space) : cut}…`;
}

/** OpenAI function-call and LangChain ReAct shapes: `{name, arguments}`, `{action, action_input}`, `{tool, args}`. */
function fromToolCallShape(data: Json, rewrites: Rewrites, toolNames: ReadonlySet<string> | undefined): Json {
  const nodeKey = TOOL_KEYS.find((key) => typeof data[key] === "string");
  if (nodeKey === undefined) {
    throw new PlannerError(
      "invalid_action",
      'The JSON has no "next_node". Reply with {"next_node": "<tool or opcode>", "args": {...}}.',
      { details: { keys: Object.keys(data).slice(0, 20) } },
    );
  }
  const argsKey = TOOL_ARG_KEYS.find((key) => key in data);
  let args: unknown = argsKey === undefined ? {} : data[argsKey];
  if (typeof args === "string" && /^\s*[[{]/.test(args)) args = getCompleteValue(args)?.value ?? args;
  rewrite(rewrites, "tool_call_shape");
  return toAction({ next_node: data[nodeKey], args }, rewrites, toolNames);
}

/** The first value in an args string, unless it had to be closed (args cut off are not args). */
function getCompleteValue(text: string): SalvagedValue | undefined {
  const first = salvageJsonValues(text)[0];
  return first === undefined || first.path === "truncated" ? undefined : first;
}

function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
