import type { PlannerAction } from "@waddle/protocol";
import { PlannerError } from "../errors/planner-error.js";
import { salvageJsonValues, type SalvagedValue, type SalvagePath } from "./salvage-json.js";

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
}

type Json = Record<string, unknown>;

const ANSWER_KEYS = ["answer", "raw_answer", "final_answer", "text", "response", "content"] as const;
const TERMINAL_SYNONYMS = new Set(["finish", "final", "final_answer", "respond", "answer"]);
const WRAPPER_KEYS = ["action", "response", "output", "result", "data"] as const;
const TOOL_KEYS = ["tool", "tool_name", "name", "function", "action"] as const;
const TOOL_ARG_KEYS = ["args", "arguments", "parameters", "tool_input", "action_input", "input"] as const;

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
  if (typeof raw !== "string") return fromObjectValue(raw, "object", options);
  const candidates = salvageJsonValues(raw);
  const only = candidates.length === 1 ? candidates[0] : undefined;
  // The usual reply is one clean JSON object: nothing to choose between.
  if (only !== undefined && isRecord(only.value) && only.path !== "truncated")
    return fromObjectValue(only.value, only.path, options);
  const objects = candidates.filter((candidate) => isRecord(candidate.value));
  if (objects.length === 0) {
    throw new PlannerError(
      "unparseable_action",
      'The reply holds no JSON object. Reply with exactly one JSON object: {"next_node": "<tool or opcode>", "args": {...}}.',
      { details: { preview: raw.slice(0, 200) } },
    );
  }
  const best = pickActionShaped(objects.map((candidate) => candidate.value as Json));
  const chosen = objects[best] ?? objects[0];
  if (chosen?.path === "truncated") throw truncatedReply(raw);
  return fromObjectValue(chosen?.value, chosen?.path ?? "direct", options);
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
  salvage: NormalizedAction["salvage"],
  options: NormalizeActionOptions,
): NormalizedAction {
  if (!isRecord(value)) {
    throw new PlannerError("invalid_action", 'An action must be a JSON object {"next_node", "args"}.', {
      details: { type: Array.isArray(value) ? "array" : typeof value },
    });
  }
  const rewrites: string[] = [];
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
  const result: NormalizedAction = { action: canonical, salvage, rewrites };
  if (thought !== undefined && thought.length > 0) result.thought = thought;
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
function unwrap(value: Json, rewrites: string[]): Json {
  if ("next_node" in value || "plan" in value) return value;
  for (const key of WRAPPER_KEYS) {
    const inner = value[key];
    if (isRecord(inner) && ("next_node" in inner || "plan" in inner)) {
      rewrites.push("wrapper");
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

function toAction(data: Json, rewrites: string[], toolNames: ReadonlySet<string> | undefined): Json {
  if ("thought" in data) rewrites.push("legacy");
  const plan = data.plan;
  const node = data.next_node;
  if (Array.isArray(plan) && plan.length > 0 && node !== "final_response") {
    rewrites.push("legacy_plan");
    return toParallel({ steps: plan, join: data.join }, rewrites);
  }
  if (node === null || (node === undefined && "thought" in data)) {
    rewrites.push("legacy_terminal");
    return toFinal(data, rewrites);
  }
  if (typeof node !== "string") return fromToolCallShape(data, rewrites, toolNames);
  const args = readArgs(data, rewrites);
  return canonicalize({ node: node.trim(), args, data, rewrites, toolNames });
}

function canonicalize(input: {
  node: string;
  args: unknown;
  data: Json;
  rewrites: string[];
  toolNames: ReadonlySet<string> | undefined;
}): Json {
  const { node, args, data, rewrites } = input;
  if (input.toolNames?.has(node) === true) return { next_node: node, args: requireArgsObject(args, node) };
  if (node === "final_response" || TERMINAL_SYNONYMS.has(node)) {
    if (node !== "final_response") rewrites.push(`synonym:${node}`);
    return toFinal({ ...data, args }, rewrites);
  }
  if (node === "parallel" || node === "plan") {
    if (node === "plan") rewrites.push("synonym:plan");
    return toParallel(Array.isArray(args) ? { steps: args } : (args as Json), rewrites);
  }
  if (node === "task") return toTask(requireArgsObject(args, node), rewrites);
  return { next_node: node, args: requireArgsObject(args, node) };
}

/** `args`, parsed when a weak model sent it as a JSON string, or the hybrid top-level keys. */
function readArgs(data: Json, rewrites: string[]): unknown {
  let args = data.args;
  if (typeof args === "string" && /^\s*[[{]/.test(args)) {
    const parsed = getCompleteValue(args);
    if (parsed !== undefined) {
      rewrites.push("args_string");
      args = parsed.value;
    }
  }
  if (args === undefined || args === null) {
    const loose = Object.entries(data).filter(
      ([key]) => !["next_node", "args", "thought", "plan", "join"].includes(key),
    );
    if (loose.length > 0) {
      rewrites.push("hybrid");
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

function toFinal(data: Json, rewrites: string[]): Json {
  const rawArgs = data.args;
  const args: Json = isRecord(rawArgs) ? { ...rawArgs } : {};
  if (typeof rawArgs === "string") args.answer = rawArgs;
  if (typeof args.answer !== "string") {
    const key = ANSWER_KEYS.find((name) => typeof args[name] === "string");
    const topKey = ANSWER_KEYS.find((name) => typeof data[name] === "string");
    if (key !== undefined) {
      args.answer = args[key];
      if (key !== "answer") rewrites.push(`synonym:${key}`);
    } else if (topKey !== undefined) {
      args.answer = data[topKey];
      rewrites.push("hybrid");
    }
  }
  if ("raw_answer" in args && args.answer === args.raw_answer) delete args.raw_answer;
  return { next_node: "final_response", args };
}

function toParallel(args: Json, rewrites: string[]): Json {
  const steps = Array.isArray(args.steps) ? args.steps.map((step) => toStep(step, rewrites)) : args.steps;
  const out: Json = { ...args, steps };
  if (args.join === null || args.join === undefined) delete out.join;
  else out.join = isRecord(args.join) ? toStep(args.join, rewrites) : args.join;
  return { next_node: "parallel", args: out };
}

/** `{node|tool|next_node|name, args|arguments}` → `{node, args, …}` for steps and joins. */
function toStep(step: unknown, rewrites: string[]): unknown {
  if (!isRecord(step)) return step;
  if (typeof step.node === "string" && (step.args === undefined || isRecord(step.args))) return step;
  const nodeKey = (["node", "tool", "next_node", "name"] as const).find(
    (key) => typeof step[key] === "string",
  );
  const argsKey = (["args", "arguments", "parameters"] as const).find((key) => isRecord(step[key]));
  if (nodeKey === undefined) return step;
  rewrites.push("step_shape");
  const out: Json = { node: step[nodeKey] };
  out.args = argsKey === undefined ? {} : step[argsKey];
  if (step.inject !== undefined) out.inject = step.inject;
  return out;
}

function toTask(args: Json, rewrites: string[]): Json {
  const { mode, ...rest } = args;
  const isTool = mode === "job" || mode === "tool" || (mode === undefined && typeof rest.tool === "string");
  rewrites.push("synonym:task");
  if (isTool && rest.tool_args === undefined && isRecord(rest.args)) {
    rest.tool_args = rest.args;
    delete rest.args;
  }
  return { next_node: isTool ? "task.tool" : "task.subagent", args: rest };
}

/** OpenAI function-call and LangChain ReAct shapes: `{name, arguments}`, `{action, action_input}`, `{tool, args}`. */
function fromToolCallShape(data: Json, rewrites: string[], toolNames: ReadonlySet<string> | undefined): Json {
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
  rewrites.push("tool_call_shape");
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
