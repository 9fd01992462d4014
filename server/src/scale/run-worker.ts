import { TERMINAL_RUN_STATUSES, type RunRecord } from "@waddle/protocol";
import { Worker, type Job } from "bullmq";
import type { Redis } from "ioredis";
import type { PlannerFactory } from "../runs/planner-factory.js";
import type { RunEventHub } from "../runs/run-event-hub.js";
import { runJob } from "../runs/run-job.js";
import { cancelledEvent, markRunCrashed, recordPlannerError } from "../runs/run-outcome-events.js";
import { RunRecorder } from "../runs/run-recorder.js";
import { getContextSecrets, type SecretRedactor } from "../secrets/secret-redactor.js";
import type { Logger } from "../shared/logger.js";
import type { RunClaim, WaddleStore } from "../store/waddle-store.js";
import { RUN_QUEUE_NAME, type RunJobData } from "./run-queue.js";

export interface RunWorkerOptions {
  connection: Redis;
  store: WaddleStore;
  /** Where this worker's recorders publish (the cluster bridge forwards to the other instances). */
  hub: RunEventHub;
  createPlanner: PlannerFactory;
  redactor: SecretRedactor;
  logger: Logger;
  /** This instance's name in claims. */
  owner: string;
  /** Runs executing at once here (`WADDLE_MAX_CONCURRENT_RUNS`). */
  concurrency: number;
  /** How long a claim lasts unless renewed; renewed every third of it (`WADDLE_RUN_LEASE_MS`). */
  leaseMs: number;
}

interface ActiveRun {
  controller: AbortController;
  claim: RunClaim;
  /** Set when another claim took the run: nothing more is written for it here. */
  lost: boolean;
  /** Set when this worker stops: the run is handed over, not ended. */
  handedOver: boolean;
  recorder?: RunRecorder;
}

/**
 * Consumes the run queue: claims the job's run in the store (one worker wins; a run held by a live claim
 * or no longer waiting is skipped), renews the claim while it runs, and executes it: a queued run starts or
 * resumes with the work stored with it, a run whose last worker stopped continues from its checkpoint.
 * Every write is fenced by the claim. Cancel reaches a run through `cancel` (a wake-up) or, when wake-ups
 * are lost, the store's cancel flag read at each renewal.
 */
export class RunWorker {
  private readonly worker: Worker<RunJobData>;
  private readonly active = new Map<string, ActiveRun>();
  private closing = false;

  constructor(private readonly options: RunWorkerOptions) {
    this.worker = new Worker<RunJobData>(RUN_QUEUE_NAME, (job) => this.process(job), {
      connection: options.connection,
      concurrency: options.concurrency,
      // A job stays active for its run's whole turn; the claim in the store, not this lock, decides who
      // runs it, so a stalled job is only re-delivered (never failed) and re-claiming it is harmless.
      lockDuration: Math.max(5_000, options.leaseMs),
      stalledInterval: Math.max(5_000, options.leaseMs),
      maxStalledCount: 1_000,
      // Idle workers ask again every second: a wake-up consumed by a frozen worker delays no job for long.
      drainDelay: 1,
    });
    this.worker.on("error", (error) => {
      // Redis going away is said once by RedisConnections; anything else is worth a line.
      if (!/ECONNREFUSED|Connection is closed|ECONNRESET/.test(error.message))
        options.logger.warn("run queue worker error", { error: error.message });
    });
    this.worker.on("failed", (job, error) =>
      options.logger.warn("run job failed", { runId: job?.data.runId, error: error.message }),
    );
  }

  get activeCount(): number {
    return this.active.size;
  }

  /** A cancel wake-up: aborts the run if it executes here. */
  cancel(runId: string): void {
    this.active.get(runId)?.controller.abort(new Error("cancelled by request"));
  }

  /**
   * Stops taking jobs and hands the running runs over: their planners are aborted without writing an end,
   * and their claims released, so that another worker continues each from its last checkpoint at once.
   */
  async close(graceMs = 3_000): Promise<void> {
    this.closing = true;
    const running = [...this.active.values()];
    for (const active of running) {
      active.handedOver = true;
      active.recorder?.seal();
      active.controller.abort(new Error("worker shutting down"));
    }
    await Promise.race([this.worker.close(), new Promise((resolve) => setTimeout(resolve, graceMs).unref())]);
  }

  private async process(job: Job<RunJobData>): Promise<void> {
    if (this.closing || job.name === "wake") return;
    const { store, owner, leaseMs, logger } = this.options;
    const { runId } = job.data;
    const claim = await store.claimRun({ runId, owner, leaseMs, statuses: ["queued", "running"] });
    if (!claim) return;
    const active: ActiveRun = { controller: new AbortController(), claim, lost: false, handedOver: false };
    this.active.set(runId, active);
    const heartbeat = setInterval(() => void this.renew(active), Math.max(100, Math.floor(leaseMs / 3)));
    try {
      await this.execute(active, job.data.toolContext ?? {});
    } catch (error) {
      if (!active.lost && !active.handedOver) {
        await markRunCrashed({
          runId,
          error,
          recorder: async () => this.createRecorder((await store.getRun(runId))!, active),
          store,
          hub: this.options.hub,
          logger,
        });
      }
    } finally {
      clearInterval(heartbeat);
      this.active.delete(runId);
      if (!active.lost) await store.releaseClaim(claim).catch(() => undefined);
    }
  }

  /** Renews the claim; a lost claim or a cancel request aborts the run. */
  private async renew(active: ActiveRun): Promise<void> {
    try {
      const renewed = await this.options.store.renewClaim(active.claim, this.options.leaseMs);
      if (!renewed.held) this.loseClaim(active);
      else if (renewed.cancelRequested) active.controller.abort(new Error("cancelled by request"));
    } catch (error) {
      // The store is down: the lease runs on; writes wait for the store and are fenced when it is back.
      this.options.logger.warn("claim not renewed", { runId: active.claim.runId, error: String(error) });
    }
  }

  private loseClaim(active: ActiveRun): void {
    if (active.lost) return;
    active.lost = true;
    this.options.logger.warn("run claimed by another worker: stopping it here", {
      runId: active.claim.runId,
      epoch: active.claim.epoch,
    });
    active.controller.abort(new Error("claim lost"));
  }

  private async execute(active: ActiveRun, toolContext: Record<string, unknown>): Promise<void> {
    const { store, logger } = this.options;
    const { claim, controller } = active;
    const run = await store.getRun(claim.runId);
    if (!run) return;
    const recorder = this.createRecorder(run, active, toolContext);
    active.recorder = recorder;
    if (active.handedOver) recorder.seal();
    if (claim.cancelRequested) {
      if (run.pause) await store.deletePausedState(run.pause.resumeToken).catch(() => undefined);
      await recorder.append(cancelledEvent(run, "The run was cancelled."));
      return;
    }
    const recovering = claim.status === "running";
    const checkpoint = recovering ? await store.loadCheckpoint(run.id) : undefined;
    if (recovering)
      logger.info("run recovered from its last checkpoint", { runId: run.id, seq: checkpoint?.seq });
    try {
      await runJob({
        run,
        resume: recovering ? undefined : claim.work?.resume,
        ...(claim.work?.contextMeta && !recovering ? { contextMeta: claim.work.contextMeta } : {}),
        recorder,
        signal: controller.signal,
        toolContext,
        store,
        createPlanner: this.options.createPlanner,
        logger,
        fence: claim.epoch,
        ...(recovering ? { recovery: { checkpoint: checkpoint?.state, lastSeq: run.lastSeq ?? 0 } } : {}),
      });
    } catch (error) {
      await recorder.flush();
      if (recorder.isSealed || active.lost || active.handedOver) return;
      const cancelled = controller.signal.aborted;
      await recordPlannerError({ run, recorder, error, cancelled, logger });
    } finally {
      await recorder.flush();
      logger.info("run stopped here", {
        runId: run.id,
        status:
          active.handedOver && !TERMINAL_RUN_STATUSES.has(recorder.currentStatus)
            ? "handed over"
            : recorder.currentStatus,
      });
    }
  }

  private createRecorder(
    run: RunRecord,
    active: ActiveRun,
    toolContext: Record<string, unknown> = {},
  ): RunRecorder {
    const { redactor } = this.options;
    return new RunRecorder({
      runId: run.id,
      lastSeq: run.lastSeq ?? 0,
      usage: run.usage,
      status: run.status,
      store: this.options.store,
      hub: this.options.hub,
      redactor:
        Object.keys(toolContext).length > 0 ? redactor.with(getContextSecrets(toolContext)) : redactor,
      logger: this.options.logger,
      claim: { epoch: active.claim.epoch, onFenced: () => this.loseClaim(active) },
    });
  }
}
