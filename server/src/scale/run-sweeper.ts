import type { Logger } from "../shared/logger.js";
import type { WaddleStore } from "../store/waddle-store.js";
import type { RunQueue } from "./run-queue.js";

/**
 * Queues again every run that waits for a worker without a job on its way: a queued run whose job was
 * lost (Redis restarted, or could not be reached when the run was queued), and a running run whose worker
 * stopped renewing its claim (killed, frozen, cut off). Every worker sweeps; job ids make the adds of
 * several sweepers one job.
 */
export class RunSweeper {
  private timer: NodeJS.Timeout | undefined;
  private sweeping = false;

  constructor(
    private readonly options: { store: WaddleStore; queue: RunQueue; intervalMs: number; logger: Logger },
  ) {}

  start(): void {
    this.timer ??= setInterval(() => void this.sweep(), this.options.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One pass; returns how many runs it queued. */
  async sweep(): Promise<number> {
    if (this.sweeping) return 0;
    this.sweeping = true;
    try {
      const runs = await this.options.store.listUnclaimedRuns(200);
      for (const run of runs) {
        if (run.status === "running")
          this.options.logger.info("run's worker stopped: queueing it to continue", { runId: run.runId });
        await this.options.queue.add(run.runId, run.epoch);
      }
      // A job that was already waiting is not announced again by its add: wake a worker for it.
      if (runs.length > 0) await this.options.queue.wake();
      return runs.length;
    } catch (error) {
      this.options.logger.warn("sweep failed", { error: String(error) });
      return 0;
    } finally {
      this.sweeping = false;
    }
  }
}
