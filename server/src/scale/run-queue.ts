import { Queue } from "bullmq";
import type { Redis } from "ioredis";
import type { Logger } from "../shared/logger.js";

export const RUN_QUEUE_NAME = "waddle-runs";

/**
 * A job of the run queue: which run to claim. The run's work (a new run's context, the answer to its
 * pause) is in PostgreSQL; only a toolContext travels here, since it is never stored.
 */
export interface RunJobData {
  runId: string;
  toolContext?: Record<string, unknown>;
}

/** How long adding a job may wait for Redis before the sweeper is left to add it (see RunSweeper). */
const ADD_TIMEOUT_MS = 2_000;

/**
 * The run queue on BullMQ. A job's id is the run's id and the epoch it was queued at, so that the API, a
 * sweeper and BullMQ's own stalled-job check adding the same run again make one job, not several.
 */
export class RunQueue {
  readonly queue: Queue<RunJobData>;

  constructor(
    connection: Redis,
    private readonly logger: Logger,
  ) {
    this.queue = new Queue<RunJobData>(RUN_QUEUE_NAME, {
      connection,
      defaultJobOptions: { removeOnComplete: true, removeOnFail: true, attempts: 1 },
    });
    this.queue.on("error", () => undefined);
  }

  /**
   * Adds the job of a run queued at `epoch`; never throws: a job that cannot be added now is added by a
   * sweeper once the run's queue lease ends (PostgreSQL holds the run; Redis only wakes a worker).
   */
  async add(runId: string, epoch: number, toolContext?: Record<string, unknown>): Promise<void> {
    const data: RunJobData = toolContext ? { runId, toolContext } : { runId };
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.queue.add("run", data, { jobId: getRunJobId(runId, epoch) }),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error("Redis did not take the job in time")), ADD_TIMEOUT_MS);
        }),
      ]);
    } catch (error) {
      this.logger.warn("run job not queued yet: a sweeper will queue it", {
        runId,
        error: error instanceof Error ? error.message : String(error),
      });
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Adds an empty `wake` job. A job added again under an id that already waits adds nothing, not even the
   * marker that wakes an idle worker; and a marker may have gone to a worker that froze before taking
   * its job. A wake job makes a new marker: the worker it wakes takes the oldest waiting job first.
   */
  async wake(): Promise<void> {
    await this.queue.add("wake", { runId: "" }).catch(() => undefined);
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}

/** `run_…-e3`: BullMQ ids may not contain ':' and must not be integers. */
export function getRunJobId(runId: string, epoch: number): string {
  return `${runId}-e${epoch}`;
}
