import type { ResumeRequest, RunRecord, StartRunRequest } from "@waddle/protocol";

/** What a run may get besides the REST request: set by the server's own callers, never by a client's body. */
export interface StartRunOptions {
  /**
   * Non-secret context the LLM sees beside the query (the planner's `contextMeta`): the earlier messages of
   * a chat completion. Held in memory until the run starts; a paused run keeps it in its saved state.
   */
  contextMeta?: Record<string, unknown>;
}

/** What the REST routes ask of the run manager. */
export interface RunService {
  /** Queues a run of the agent's latest (or given) version; answers at once with its id. */
  startRun(request: StartRunRequest, options?: StartRunOptions): Promise<{ runId: string }>;
  /** Cancels a queued, running or paused run; `invalid_state` once it has ended. */
  cancelRun(runId: string): Promise<RunRecord>;
  /** Continues a paused run with a decision; `invalid_state` when it is not paused or the token is stale. */
  resumeRun(runId: string, request: ResumeRequest): Promise<{ runId: string }>;
}
