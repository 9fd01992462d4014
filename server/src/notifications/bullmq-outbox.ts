import { Queue, Worker, type Job } from "bullmq";
import type { Redis } from "ioredis";
import type { Logger } from "../shared/logger.js";
import type { WebhookStore } from "../store/webhooks/webhook-store.js";
import type { OutboxScheduler, ScheduledEntry } from "./outbox-scheduler.js";
import type { WebhookDeliverer } from "./webhook-deliverer.js";

export const NOTIFICATION_QUEUE_NAME = "waddle-notifications";

/** A job only says which attempt of which entry to make; the entry (body, due time) is in PostgreSQL. */
interface AttemptJobData {
  entryId: string;
  /** The attempts the entry had when the job was added: the job makes attempt `attempts + 1`. */
  attempts: number;
}

/** How long an add may wait for Redis before the sweeper is left to add it. */
const ADD_TIMEOUT_MS = 2_000;

/**
 * The outbox in queue mode: each attempt is a BullMQ job delayed to its due time, whose id is the entry
 * and attempt number, so that the instance that enqueued it, a sweeper and BullMQ's stalled-job check adding
 * it again make one job. The worker claims the attempt in the store before sending (one claim wins across
 * instances), so that each notification reaches each webhook once; a retry adds the next attempt's job.
 * Every worker sweeps for entries overdue without a job (Redis lost them, or was down when they were added).
 */
export class BullmqOutbox implements OutboxScheduler {
  private readonly queue: Queue<AttemptJobData>;
  private worker: Worker<AttemptJobData> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly abort = new AbortController();
  private sweeping = false;

  constructor(
    private readonly options: {
      connection: Redis;
      /** A blocking connection for this instance's worker; none on an `api` instance (it only enqueues). */
      workerConnection?: Redis;
      store: WebhookStore;
      deliverer: WebhookDeliverer;
      logger: Logger;
      concurrency: number;
      leaseMs: number;
      /** How often a worker looks for entries overdue by more than this (no job carried them). */
      sweepMs: number;
      clock?: () => number;
    },
  ) {
    this.queue = new Queue<AttemptJobData>(NOTIFICATION_QUEUE_NAME, {
      connection: options.connection,
      defaultJobOptions: { removeOnComplete: true, removeOnFail: true, attempts: 1 },
    });
    this.queue.on("error", () => undefined);
  }

  start(): void {
    const { workerConnection, logger } = this.options;
    if (!workerConnection || this.worker) return;
    this.worker = new Worker<AttemptJobData>(NOTIFICATION_QUEUE_NAME, (job) => this.process(job), {
      connection: workerConnection,
      concurrency: this.options.concurrency,
      lockDuration: Math.max(30_000, this.options.leaseMs),
      drainDelay: 1,
    });
    this.worker.on("error", (error) => {
      if (!/ECONNREFUSED|Connection is closed|ECONNRESET/.test(error.message))
        logger.warn("notification worker error", { error: error.message });
    });
    this.timer = setInterval(() => void this.sweep(), this.options.sweepMs);
    this.timer.unref();
    void this.sweep();
  }

  schedule(entries: readonly ScheduledEntry[]): void {
    for (const entry of entries) void this.add(entry);
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    this.abort.abort();
    await this.worker?.close().catch(() => undefined);
    await this.queue.close().catch(() => undefined);
  }

  /** One sweep: queues the attempt of every entry overdue by more than a sweep interval. */
  async sweep(): Promise<number> {
    if (this.sweeping) return 0;
    this.sweeping = true;
    try {
      const now = this.now();
      const overdue = await this.options.store.listOverdue({
        beforeMs: now - this.options.sweepMs,
        nowMs: now,
        limit: 200,
      });
      for (const entry of overdue) await this.add(entry);
      return overdue.length;
    } catch (error) {
      this.options.logger.warn("notification sweep failed", { error: String(error) });
      return 0;
    } finally {
      this.sweeping = false;
    }
  }

  private async add(entry: ScheduledEntry): Promise<void> {
    if (entry.nextAttemptAtMs === null) return;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.queue.add(
          "attempt",
          { entryId: entry.id, attempts: entry.attempts },
          {
            jobId: `${entry.id}-a${entry.attempts + 1}`,
            delay: Math.max(0, entry.nextAttemptAtMs - this.now()),
          },
        ),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error("Redis did not take the job in time")), ADD_TIMEOUT_MS);
        }),
      ]);
    } catch (error) {
      this.options.logger.warn("notification job not queued yet: a sweeper will queue it", {
        entryId: entry.id,
        error: error instanceof Error ? error.message : String(error),
      });
    } finally {
      clearTimeout(timer);
    }
  }

  private async process(job: Job<AttemptJobData>): Promise<void> {
    const entry = await this.options.store.claim({
      id: job.data.entryId,
      attempts: job.data.attempts,
      nowMs: this.now(),
      leaseMs: this.options.leaseMs,
    });
    // Another instance made this attempt, or makes it now; or the entry is done or gone.
    if (!entry) return;
    const report = await this.options.deliverer.attempt(entry, this.abort.signal);
    if (report?.entry.state === "pending") await this.add(report.entry);
  }

  private now(): number {
    return (this.options.clock ?? Date.now)();
  }
}
