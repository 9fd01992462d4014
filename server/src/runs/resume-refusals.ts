import type { RunRecord } from "@waddle/protocol";
import { ApiError } from "../api-error.js";

/** A paused run whose agent was deleted has no spec to resume under: it can only be cancelled. */
export function agentGone(run: RunRecord): ApiError {
  return new ApiError(
    "invalid_state",
    `Agent "${run.agentId}" version ${run.agentVersion}, which this run ran, was deleted: the run cannot be ` +
      `resumed. Cancel it (POST /api/runs/${run.id}/cancel) and start a new run.`,
    { agentId: run.agentId, agentVersion: run.agentVersion },
  );
}

/** The planner would refuse an edit without args after the 202; answered at once, the run stays paused. */
export function editNeedsArgs(run: RunRecord): ApiError {
  const tool = run.pause?.payload.tool;
  return new ApiError(
    "validation_failed",
    `decision "edit" needs args: the new args of ${typeof tool === "string" ? tool : "the paused call"}.`,
    { where: "body", issues: [{ path: "$.args", message: 'required when decision is "edit"' }] },
  );
}
