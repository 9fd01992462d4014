import { Worker, type Job } from "bullmq";
import type { Redis } from "ioredis";
import type { RunExecutor } from "../runs/run-executor.js";
import type { QueuedRun, RunQueuePort } from "../runs/run-queue-port.js";
import type { Logger } from "../shared/logger.js";
import type { RunSweeper } from "./run-sweeper.js";
import { RUN_QUEUE_NAME, type RunJobData, type RunQueue } from "./run-queue.js";

export interface BullmqRunQueueOptions {
  queue: RunQueue;
  /** This instance's executor, with checkpoints; none on an `api` instance (it only queues). */
  executor?: RunExecutor;
  /** The connection of the worker (a blocking one); required with `executor`. */
  connection?: Redis;
  /** Queues again what waits without a job; stopped first at close. */
  sweeper?: RunSweeper;
  /** Runs executing at once here (`WADDLE_MAX_CONCURRENT_RUNS`). */
  concurrency: number;
  leaseMs: number;
  logger: Logger;
  /** Sends a cancel wake-up to every instance (the one executing the run aborts it at once). */
  wakeCancel: (runId: string) => void;
}

/**
 * The run queue port on BullMQ: a job only says "claim run X" (see run-queue.ts), and this instance's
 * BullMQ worker hands each job to the run executor, which claims the run in the store. A job stays active
 * for its run's whole turn; the claim, not BullMQ's lock, decides who runs it.
 */
export class BullmqRunQueue implements RunQueuePort {
  private readonly worker: Worker<RunJobData> | undefined;
  private closing = false;

  constructor(private readonly options: BullmqRunQueueOptions) {
    const { executor, logger } = options;
    if (!executor || !options.connection) return;
    this.worker = new Worker<RunJobData>(RUN_QUEUE_NAME, (job) => this.process(executor, job), {
      connection: options.connection,
      concurrency: options.concurrency,
      // A stalled job is only re-delivered (never failed), and claiming its run again is harmless.
      lockDuration: Math.max(5_000, options.leaseMs),
      stalledInterval: Math.max(5_000, options.leaseMs),
      maxStalledCount: 1_000,
      // Idle workers ask again every second: a wake-up consumed by a frozen worker delays no job for long.
      drainDelay: 1,
    });
    this.worker.on("error", (error) => {
      // Redis going away is said once by RedisConnections; anything else is worth a line.
      if (!/ECONNREFUSED|Connection is closed|ECONNRESET/.test(error.message))
        logger.warn("run queue worker error", { error: error.message });
    });
    this.worker.on("failed", (job, error) =>
      logger.warn("run job failed", { runId: job?.data.runId, error: error.message }),
    );
  }

  get activeCount(): number {
    return this.options.executor?.activeCount ?? 0;
  }

  /** Runs wait in Redis, not here. */
  readonly queuedCount = 0;

  add(run: QueuedRun): Promise<void> {
    return this.options.queue.add(run.runId, run.epoch, run.toolContext);
  }

  wakeCancel(runId: string): void {
    this.options.wakeCancel(runId);
  }

  /** A cancel wake-up from any instance: aborts the run if it executes here. */
  cancelHere(runId: string): void {
    this.options.executor?.cancel(runId);
  }

  async awaitExecution(runId: string, timeoutMs: number): Promise<void> {
    await this.options.executor?.awaitExecution(runId, timeoutMs);
  }

  async awaitPausedExecution(runId: string): Promise<void> {
    await this.options.executor?.awaitPausedExecution(runId);
  }

  /** Runs whose worker stopped are found by sweepers and continued, never marked interrupted. */
  async recoverRuns(): Promise<string[]> {
    return [];
  }

  /**
   * Stops taking jobs and hands the running runs over: their planners are aborted without writing an end,
   * and their claims released, so that another worker continues each from its last checkpoint at once.
   */
  async close(graceMs = 3_000): Promise<void> {
    this.closing = true;
    this.options.sweeper?.stop();
    if (!this.worker) return;
    void this.options.executor?.stop("handover", 0);
    await Promise.race([this.worker.close(), new Promise((resolve) => setTimeout(resolve, graceMs).unref())]);
  }

  private async process(executor: RunExecutor, job: Job<RunJobData>): Promise<void> {
    if (this.closing || job.name === "wake") return;
    await executor.execute({
      runId: job.data.runId,
      epoch: 0,
      ...(job.data.toolContext ? { toolContext: job.data.toolContext } : {}),
    });
  }
}
