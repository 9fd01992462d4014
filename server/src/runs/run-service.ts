import type { ResumeRequest, RunRecord, StartRunRequest } from "@waddle/protocol";

/** What the REST routes ask of the run manager. */
export interface RunService {
  /** Queues a run of the agent's latest (or given) version; answers at once with its id. */
  startRun(request: StartRunRequest): Promise<{ runId: string }>;
  /** Cancels a queued, running or paused run; `invalid_state` once it has ended. */
  cancelRun(runId: string): Promise<RunRecord>;
  /** Continues a paused run with a decision; `invalid_state` when it is not paused or the token is stale. */
  resumeRun(runId: string, request: ResumeRequest): Promise<{ runId: string }>;
}
