import type { PlannerAction } from "@waddle/protocol";
import { normalizeActionDetailed, type ActionFormat } from "./normalize-action.js";
import { isPlannerError } from "../errors/planner-error.js";
import { salvageJsonValues } from "./salvage-json.js";

export type InterpretedReply =
  | {
      ok: true;
      action: PlannerAction;
      thought?: string;
      rewrites: readonly string[];
      /** The reply was exactly a unified action (clean JSON, nothing rewritten): it can be echoed as is. */
      verbatim: boolean;
    }
  | { ok: false; code: string; message: string };

export interface InterpretOptions {
  format: ActionFormat;
  toolNames: ReadonlySet<string>;
  /** Set when the reply answers an arg-fill request: a bare object fills the missing fields. */
  argFill?: { node: string; args: Record<string, unknown> };
  /** The client's `LlmResult.finishReason`: `length` means the reply was cut off at the token limit. */
  finishReason?: string | undefined;
}

const TRUNCATED_MESSAGE =
  "The reply stopped at the output token limit (finish_reason length), so it may be cut short and none " +
  "of it was run. Send the whole action again, shorter: brief args, and a final answer that fits.";

/**
 * Turns an LLM reply into an action through `normalizeAction`. After an arg-fill request, a reply that is
 * not an action but an object of fields is merged into the args that were missing them. A reply cut off
 * (`finishReason` `length`, or ending inside its object) is refused with `truncated_reply`.
 */
export function interpretReply(content: string, options: InterpretOptions): InterpretedReply {
  // A reply cut off at the token limit is repaired, never run: even JSON that happens to parse may end
  // early (a final answer cut mid-sentence) — docs/normalization.md.
  if (options.finishReason === "length")
    return { ok: false, code: "truncated_reply", message: TRUNCATED_MESSAGE };
  if (options.argFill !== undefined) {
    const filled = mergeArgFill(content, options.argFill);
    if (filled !== undefined) return { ok: true, action: filled, rewrites: ["arg_fill"], verbatim: false };
  }
  try {
    // `options` is a NormalizeActionOptions too (`argFill` is ignored there): no copy per reply.
    const normalized = normalizeActionDetailed(content, options);
    const out: InterpretedReply = {
      ok: true,
      action: normalized.action,
      rewrites: normalized.rewrites,
      verbatim: normalized.salvage === "direct" && normalized.rewrites.length === 0,
    };
    if (normalized.thought !== undefined) out.thought = normalized.thought;
    return out;
  } catch (error) {
    if (isPlannerError(error)) return { ok: false, code: error.code, message: error.message };
    throw error;
  }
}

function mergeArgFill(
  content: string,
  fill: { node: string; args: Record<string, unknown> },
): PlannerAction | undefined {
  const object = salvageJsonValues(content)
    // Fields cut off mid-value are not fields: a truncated reply goes on to normalizeAction's refusal.
    .filter((candidate) => candidate.path !== "truncated")
    .map((candidate) => candidate.value)
    .find(
      (value): value is Record<string, unknown> =>
        typeof value === "object" && value !== null && !Array.isArray(value),
    );
  if (object === undefined || "next_node" in object || "thought" in object || "plan" in object)
    return undefined;
  const fields = isRecord(object.args) && Object.keys(object).length === 1 ? object.args : object;
  return { next_node: fill.node, args: { ...fill.args, ...fields } };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
