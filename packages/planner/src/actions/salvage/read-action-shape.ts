// An action object in any shape weak models send, read as the canonical action (docs/normalization.md).
import { PlannerError } from "../../errors/planner-error.js";
import { salvageJsonValues, type SalvagedValue } from "../salvage-json.js";
import { hasBareAnswer, toFinalResponse } from "./final-response-args.js";
import { toParallel } from "./parallel-args.js";
import { isRecord, rewrite, type Json, type Rewrites } from "./rewrites.js";
import { loosenTaskArgs, toTask } from "./task-args.js";
import { findToolSpelling, toToolKey } from "./tool-spelling.js";

const TERMINAL_SYNONYMS = new Set(["finish", "final", "final_answer", "respond", "answer"]);

/** Keys that name the tool in function-call and LangChain shapes (`{name, arguments}`, `{action, …}`). */
export const TOOL_KEYS = ["tool", "tool_name", "name", "function", "action", "node"] as const;

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
 * One JSON object (unwrapped) as `{next_node, args}`: aliases of `next_node`, legacy terminals and plans,
 * tool-call shapes, opcodes and their synonyms, loose tool names. Args are checked to be an object later.
 */
export function readActionShape(
  input: Json,
  rewrites: Rewrites,
  toolNames: ReadonlySet<string> | undefined,
): Json {
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
    return toFinalResponse(data, rewrites);
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
    return toFinalResponse({ args: isRecord(data.args) ? { ...data.args, ...rest } : rest }, rewrites);
  }
  if (isRecord(data.args) && hasBareAnswer(data.args)) {
    const shown = data.next_node === undefined ? "missing" : JSON.stringify(data.next_node);
    rewrite(
      rewrites,
      "answer_without_next_node",
      `next_node was ${shown} and args held an answer: read as final_response`,
    );
    return toFinalResponse({ args: data.args }, rewrites);
  }
  return fromToolCallShape(data, rewrites, toolNames);
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
    return toFinalResponse({ ...data, args }, rewrites);
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
  return readActionShape({ next_node: data[nodeKey], args }, rewrites, toolNames);
}

/** The first value in an args string, unless it had to be closed (args cut off are not args). */
function getCompleteValue(text: string): SalvagedValue | undefined {
  const first = salvageJsonValues(text)[0];
  return first === undefined || first.path === "truncated" ? undefined : first;
}
