import type { ResumeConflictDetails, ResumeConflictReason, RunRecord } from "@waddle/protocol";
import { ApiError } from "../shared/api-error.js";

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

/** How many answered pauses a server remembers, to tell a late second answer what happened. */
const REMEMBERED_ANSWERS = 1_000;

/**
 * The pauses this process accepted an answer to (run id and resume token), newest last, bounded. After a
 * restart it is empty: a second answer to a pause answered before then is told `not_paused` or
 * `stale_token`, with the run's state all the same.
 */
export class AnsweredPauses {
  private readonly answers = new Set<string>();

  remember(runId: string, resumeToken: string): void {
    const key = `${runId}\n${resumeToken}`;
    this.answers.delete(key);
    this.answers.add(key);
    if (this.answers.size > REMEMBERED_ANSWERS) {
      const oldest = this.answers.values().next().value;
      if (oldest !== undefined) this.answers.delete(oldest);
    }
  }

  has(runId: string, resumeToken: string): boolean {
    return this.answers.has(`${runId}\n${resumeToken}`);
  }
}

/**
 * The 409 for a resume the run's state refuses: another answer to the same pause came first, the run is
 * not paused, or the token is not its pause's. `details` carry the run as it is now (`ResumeConflictDetails`),
 * so that a client shows the new state instead of reloading blind.
 */
export function resumeConflict(options: {
  run: RunRecord;
  resumeToken: string;
  answered: AnsweredPauses;
}): ApiError {
  const { run, resumeToken } = options;
  // Accepted and queued, not yet running: the run still holds the pause it answered.
  const inFlight = run.pause?.resumeToken === resumeToken;
  const reason: ResumeConflictReason =
    run.status !== "cancelled" && (inFlight || options.answered.has(run.id, resumeToken))
      ? "already_answered"
      : run.status === "paused" && run.pause
        ? "stale_token"
        : "not_paused";
  const details: ResumeConflictDetails = { reason, status: run.status, run };
  const message = {
    already_answered:
      `This pause of run "${run.id}" was already answered (by another request): the run is now ` +
      `${run.status}${run.status === "paused" && !inFlight ? " at a newer pause" : ""}. Reload it to see where it is.`,
    stale_token:
      "This resume token is not the run's current one: reload the run and answer its latest pause.",
    not_paused: `Run "${run.id}" is ${run.status}, not paused: only a paused run can be resumed.`,
  }[reason];
  return new ApiError("invalid_state", message, details);
}
