/** A run queued at `epoch` (its claim count then), for an executor to claim. */
export interface QueuedRun {
  runId: string;
  epoch: number;
  /** Never stored: it rides with the run to its executor (see run-tool-contexts.ts). */
  toolContext?: Record<string, unknown>;
}

/**
 * Where the run service hands queued runs to be executed: the in-process pump (`InProcessRunQueue`) or
 * BullMQ (scale/bullmq-run-queue.ts). A queue only carries "claim run X": the store's claim decides who
 * executes it, so a run added twice is executed once.
 */
export interface RunQueuePort {
  /** Hands the run to an executor; never throws (what cannot be queued now is queued again later). */
  add(run: QueuedRun): Promise<void>;
  /** Aborts the run where it executes: this process's executor, or (in a cluster) the instance's that has it. */
  wakeCancel(runId: string): void;
  /** Resolves once this process's execution of the run has ended, or after `timeoutMs`. */
  awaitExecution(runId: string, timeoutMs: number): Promise<void>;
  /**
   * Resolves once this process's execution of the run ends if it already recorded its pause (it is only
   * saving its state): an answer to the pause must not race it.
   */
  awaitPausedExecution(runId: string): Promise<void>;
  /** Runs executing in this process now. */
  readonly activeCount: number;
  /** Runs waiting in this process for a free slot (0 with BullMQ: they wait in Redis). */
  readonly queuedCount: number;
  /** At start: settles what a previous process left queued or running; returns the runs it interrupted. */
  recoverRuns(): Promise<string[]>;
  /** Stops executing: in-process runs are interrupted, a BullMQ worker's runs are handed over. */
  close(graceMs?: number): Promise<void>;
}
