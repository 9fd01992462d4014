import { createRunRecorder, type RecorderParts } from "./create-run-recorder.js";
import { interruptedEvent, type RunExecutor } from "./run-executor.js";
import type { QueuedRun, RunQueuePort } from "./run-queue-port.js";

/**
 * The run queue of a server that runs its runs itself (SQLite, or PostgreSQL without Redis): a FIFO in
 * memory, at most `maxConcurrentRuns` executing at once, the rest `queued`. Nothing outlives the process:
 * at start, runs a previous process left going are marked interrupted; at close, so are this one's.
 */
export class InProcessRunQueue implements RunQueuePort {
  private readonly waiting: QueuedRun[] = [];
  private running = 0;
  private closing = false;

  constructor(
    private readonly options: RecorderParts & { executor: RunExecutor; maxConcurrentRuns: number },
  ) {}

  get activeCount(): number {
    return this.options.executor.activeCount;
  }

  get queuedCount(): number {
    return this.waiting.length;
  }

  async add(run: QueuedRun): Promise<void> {
    this.waiting.push(run);
    this.pump();
  }

  wakeCancel(runId: string): void {
    this.options.executor.cancel(runId);
  }

  awaitExecution(runId: string, timeoutMs: number): Promise<void> {
    return this.options.executor.awaitExecution(runId, timeoutMs);
  }

  awaitPausedExecution(runId: string): Promise<void> {
    return this.options.executor.awaitPausedExecution(runId);
  }

  /** Marks runs that a previous process left `running` (or queued) as interrupted, with an event. */
  async recoverRuns(): Promise<string[]> {
    const { store, hub } = this.options;
    const interrupted: string[] = [];
    for (const run of await store.listRuns({ statuses: ["running", "queued"] })) {
      // An accepted answer to a pause that never ran: the pause stands.
      if (run.status === "queued" && run.pause) {
        const paused = await store.updateRun(run.id, { status: "paused" });
        hub.publishStatus({ runId: run.id, status: "paused", lastSeq: paused.lastSeq ?? 0 });
        continue;
      }
      await createRunRecorder(this.options, { run }).append(interruptedEvent);
      interrupted.push(run.id);
    }
    return interrupted;
  }

  /**
   * Stops for shutdown: queued and running runs are marked interrupted (with an event), planners are
   * aborted and awaited (up to `graceMs`); paused runs stay resumable, and so do accepted answers not run.
   */
  async close(graceMs = 3_000): Promise<void> {
    this.closing = true;
    const { store, hub } = this.options;
    for (const job of this.waiting.splice(0)) {
      const run = await store.getRun(job.runId);
      if (!run || (run.status !== "queued" && run.status !== "running")) continue;
      if (run.pause) {
        const paused = await store.updateRun(run.id, { status: "paused" });
        hub.publishStatus({ runId: run.id, status: "paused", lastSeq: paused.lastSeq ?? 0 });
      } else {
        await createRunRecorder(this.options, { run }).append(interruptedEvent);
      }
    }
    await this.options.executor.stop("interrupt", graceMs);
  }

  private pump(): void {
    while (!this.closing && this.running < this.options.maxConcurrentRuns && this.waiting.length > 0) {
      const job = this.waiting.shift()!;
      this.running += 1;
      void this.options.executor.execute(job).finally(() => {
        this.running -= 1;
        this.pump();
      });
    }
  }
}
