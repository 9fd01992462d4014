import type { PlannerAction } from "@waddle/protocol";

/** The offline model's next action and a one-line reason, sent on the thinking channel. */
export interface OfflineDecision {
  action: PlannerAction;
  rationale: string;
}
