export interface CanAutoExecuteOptions {
  /** The planner's `autoSeq.execute`. */
  plannerExecute: boolean;
  tool: { autoSeqExecute: boolean; requiresApproval: boolean };
  /** The tool is refused by hints or policy (`disallow_nodes`, auth scopes, a constraint check). */
  disallowed: boolean;
  /** Policy would pause this call for approval (e.g. its side effect is in `approvalSideEffects`). */
  approvalRequired: boolean;
}

/**
 * The dual gate (docs/auto-seq.md) for running a `unique` detection without an LLM call: planner `autoSeq.execute`
 * AND tool `autoSeqExecute`, and never for a disallowed tool or one that a person must approve.
 */
export function canAutoExecute(options: CanAutoExecuteOptions): boolean {
  return (
    options.plannerExecute &&
    options.tool.autoSeqExecute &&
    !options.tool.requiresApproval &&
    !options.disallowed &&
    !options.approvalRequired
  );
}
