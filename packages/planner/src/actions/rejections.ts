import type { Catalog } from "../catalog/catalog.js";
import type { CheckResult, Rejection } from "./action-check-types.js";
import type { LlmError } from "../errors/llm-error.js";
import { parseJson } from "@waddle/protocol";

export function unknownTool(node: string, catalog: Catalog, where?: string): Rejection {
  return {
    code: "unknown_tool",
    message: JSON.stringify({
      error: {
        code: "unknown_tool",
        message: `${where === undefined ? "" : `${where}: `}"${node}" is not a tool of this agent.`,
        available_tools: catalog.names,
        opcodes: ["final_response", "parallel"],
      },
      instruction: "Choose one of available_tools or an opcode. Return corrected JSON.",
    }),
    purpose: "repair",
    repairKind: "unknown_tool",
    node,
  };
}

export function disallowed(node: string, where?: string): Rejection {
  return {
    code: "disallowed_node",
    message: correctionMessage(
      "disallow_nodes",
      `${where === undefined ? "" : `${where}: `}${node} is disallowed: never call it.`,
    ),
    purpose: "correction",
    constraint: { constraint: "disallow_nodes", enforced: "rejected", node },
    node,
  };
}

export function reject(rejection: Rejection): CheckResult {
  return { ok: false, rejection };
}

export function repairMessage(code: string, message: string): string {
  return JSON.stringify({ error: { code, message }, instruction: "Return corrected JSON." });
}

/** Soft hints (ordering, prefer) may be confirmed by repeating the action; hard ones need another action. */
const SOFT_HINTS = new Set(["ordering_hints", "prefer_nodes"]);

export function correctionMessage(hint: string, message: string): string {
  return JSON.stringify({
    constraint: { hint, message },
    instruction: SOFT_HINTS.has(hint)
      ? "Reply with the action to take now: a corrected one, or the same one if it is right."
      : "This is enforced: reply with a different action.",
  });
}

/** A reply cut off mid-stream is repaired like an unparseable one (docs/llm-stream-interrupted.md). */
export function interruptedRejection(error: LlmError): { partial: string; rejection: Rejection } {
  const partial = typeof error.details?.partialContent === "string" ? error.details.partialContent : "";
  const message = `Your previous reply was cut off after ${partial.length} characters; send the complete JSON action again.`;
  return {
    partial,
    rejection: {
      code: "stream_interrupted",
      message: JSON.stringify({ error: { code: "stream_interrupted", message } }),
      purpose: "repair",
      repairKind: "parse",
    },
  };
}

export function parseRejection(
  interpreted: { ok: false; code: string; message: string } | { ok: true },
): Rejection {
  const code = interpreted.ok ? "invalid_action" : interpreted.code;
  const message = interpreted.ok ? "The reply is not a valid action." : interpreted.message;
  // Plain text is usually an answer written as prose: say how to send it, so the repair is the last one.
  const instruction =
    code === "unparseable_action"
      ? 'Your reply was plain text. If it is your answer, send {"next_node": "final_response", "args": ' +
        '{"answer": "<that text>"}}; to call a tool, send {"next_node": "<tool>", "args": {...}}. JSON only.'
      : 'Reply with exactly one JSON object {"next_node": "<tool or opcode>", "args": {...}} and nothing else.';
  return {
    code,
    message: JSON.stringify({ error: { code, message }, instruction }),
    purpose: "repair",
    repairKind: "parse",
  };
}

/** The human part of a rejection's machine message. */
export function getRejectionText(rejection: Pick<Rejection, "message">): string {
  const parsed = parseJson(rejection.message);
  if (!parsed.ok) return rejection.message;
  // The planner wrote these messages itself (see `repairMessage`, `correctionMessage`).
  const machine = parsed.value as { error?: { message?: string }; constraint?: { message?: string } } | null;
  return machine?.error?.message ?? machine?.constraint?.message ?? rejection.message;
}
