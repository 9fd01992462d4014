import type { ActionSource, PlannerOptions } from "@waddle/protocol";
import type { CatalogTool } from "../catalog/catalog.js";

export interface ApprovalRequest {
  tool: CatalogTool;
  args: Record<string, unknown>;
  source: ActionSource;
  options: PlannerOptions;
  /** True when this exact call was already approved (a resumed `approve`/`edit`): let it through. */
  approved: boolean;
}

export type ApprovalDecision = { pause: false } | { pause: true; payload: Record<string, unknown> };

/**
 * Decides, before a tool runs, whether the run must pause for a person (`approval_required`). Runs for
 * every tool call whatever its source (LLM, auto-seq, parallel branch, join).
 */
export type ApprovalGate = (request: ApprovalRequest) => ApprovalDecision;

const PROCEED: ApprovalDecision = Object.freeze({ pause: false });

/** Pauses for tools with `requiresApproval` and for side effects listed in `approvalSideEffects`. */
export const defaultApprovalGate: ApprovalGate = (request) => {
  if (request.approved) return PROCEED;
  const { tool, options } = request;
  const bySideEffect = options.approvalSideEffects.includes(tool.sideEffects);
  if (!tool.requiresApproval && !bySideEffect) return PROCEED;
  const payload: Record<string, unknown> = {
    tool: tool.name,
    args: request.args,
    sideEffects: tool.sideEffects,
    why: tool.requiresApproval ? "requires_approval" : "side_effects",
  };
  if (tool.safetyNotes !== undefined) payload.safetyNotes = tool.safetyNotes;
  return { pause: true, payload };
};
