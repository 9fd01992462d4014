import type { PlannerAction } from "@waddle/protocol";
import { PlannerError } from "../errors/planner-error.js";
import { salvageJsonValues, type SalvagedValue, type SalvagePath } from "./salvage-json.js";
import { createSalvageNote, type SalvageNote } from "./salvage-rules.js";
import { hasBareAnswer } from "./salvage/final-response-args.js";
import { readActionShape, TOOL_KEYS } from "./salvage/read-action-shape.js";
import { isRecord, rewrite, type Json, type Rewrites } from "./salvage/rewrites.js";

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

const WRAPPER_KEYS = ["action", "response", "output", "result", "data"] as const;

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
  const action = readActionShape(data, rewrites, options.toolNames);
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
