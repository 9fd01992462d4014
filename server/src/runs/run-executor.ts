import { TERMINAL_RUN_STATUSES, type RunRecord } from "@waddle/protocol";
import type { TaskHost } from "@waddle/planner";
import type { RunClaim } from "../store/waddle-store.js";
import { createRunRecorder, type RecorderParts } from "./create-run-recorder.js";
import type { PlannerFactory } from "./planner-factory.js";
import { runJob } from "./run-job.js";
import { cancelledEvent, markRunCrashed, recordPlannerError } from "./run-outcome-events.js";
import type { QueuedRun } from "./run-queue-port.js";
import type { RunRecorder } from "./run-recorder.js";

export interface RunExecutorOptions extends RecorderParts {
  createPlanner: PlannerFactory;
  /** This process's name in claims. */
  owner: string;
  /** How long a claim lasts unless renewed; renewed every third of it (`WADDLE_RUN_LEASE_MS`). */
  leaseMs: number;
  /** Queue mode: store the planner's checkpoints, and continue from them a run whose executor stopped. */
  checkpoints: boolean;
  /** Sessions: the task host of a turn's run, so that its background tasks outlive it. */
  taskHosts?: TaskHostSource;
}

/** Gives a session's turn its task host (late-bound: the sessions are built after the runs). */
export interface TaskHostSource {
  forRun(run: RunRecord, toolContext: Readonly<Record<string, unknown>>): TaskHost | undefined;
}

/** How this process stops its executions: interrupted (one process), or handed over to another worker. */
export type StopMode = "interrupt" | "handover";

const INTERRUPTED_MESSAGE = "The server stopped while this run was going; start it again.";

/** The `run_interrupted` event a run gets when its server stops while it goes. */
export const interruptedEvent = {
  type: "run_interrupted",
  data: { message: INTERRUPTED_MESSAGE },
} as const;

interface Execution {
  claim: RunClaim;
  controller: AbortController;
  /** Set once the run is read; until then a stop leaves the execution to stop itself. */
  recorder?: RunRecorder;
  /** Set when another claim took the run: nothing more is written for it here. */
  lost: boolean;
  stopping?: StopMode;
  done: Promise<void>;
}

/**
 * Executes queued runs, one call per run, whichever queue hands them over: claims the run in the store
 * (one executor wins; a run held by a live claim or no longer waiting is skipped), renews the claim while
 * it runs, and runs it: a queued run starts or resumes with the work stored with it; with checkpoints, a
 * run whose last executor stopped continues from its checkpoint. Every write is fenced by the claim. A
 * cancel reaches a run through `cancel` (a wake-up) or the store's cancel flag read at each renewal.
 */
export class RunExecutor {
  private readonly active = new Map<string, Execution>();
  private stopping: StopMode | undefined;

  constructor(private readonly options: RunExecutorOptions) {}

  get activeCount(): number {
    return this.active.size;
  }

  /** Executes the run if this executor claims it; resolves once it stopped here. Never rejects. */
  async execute(job: QueuedRun): Promise<void> {
    const { store, owner, leaseMs } = this.options;
    if (this.stopping === "handover") return;
    let claim: RunClaim | undefined;
    try {
      claim = await store.claimRun({ runId: job.runId, owner, leaseMs, statuses: ["queued", "running"] });
    } catch (error) {
      // No claim, no fence: the run is marked failed as it stands, or left to the next start's recovery.
      await markRunCrashed({
        runId: job.runId,
        error,
        recorder: async () =>
          createRunRecorder(this.options, {
            run: await this.requireRun(job.runId),
            toolContext: job.toolContext,
          }),
        store,
        hub: this.options.hub,
        logger: this.options.logger,
      });
      return;
    }
    if (!claim) return;
    const execution: Execution = {
      claim,
      controller: new AbortController(),
      lost: false,
      ...(this.stopping ? { stopping: this.stopping } : {}),
      done: Promise.resolve(),
    };
    this.active.set(job.runId, execution);
    execution.done = this.executeClaimed(execution, job.toolContext ?? {});
    await execution.done;
  }

  /** A cancel wake-up: aborts the run if it executes here. */
  cancel(runId: string): void {
    this.active.get(runId)?.controller.abort(new Error("cancelled by request"));
  }

  /** See `RunQueuePort.awaitExecution`. */
  async awaitExecution(runId: string, timeoutMs: number): Promise<void> {
    const execution = this.active.get(runId);
    if (!execution) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      execution.done,
      new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs).unref())),
    ]);
    clearTimeout(timer);
  }

  /** See `RunQueuePort.awaitPausedExecution`. */
  async awaitPausedExecution(runId: string): Promise<void> {
    const execution = this.active.get(runId);
    if (execution?.recorder?.currentStatus === "paused") await execution.done;
  }

  /**
   * Stops every execution, and those about to start. `interrupt`: each gets `run_interrupted` and its
   * planner is aborted. `handover`: nothing more is written and the claims are released, so that another
   * worker continues each run from its last checkpoint at once. An execution that already recorded its
   * pause is only saving its state: it ends paused and resumable.
   */
  async stop(mode: StopMode, graceMs: number): Promise<void> {
    this.stopping = mode;
    const running = [...this.active.values()];
    const stopping = running.filter((execution) => execution.recorder?.currentStatus !== "paused");
    for (const execution of stopping) execution.stopping = mode;
    if (mode === "interrupt")
      await Promise.all(stopping.map((execution) => execution.recorder?.append(interruptedEvent)));
    else for (const execution of stopping) execution.recorder?.seal();
    for (const execution of stopping)
      execution.controller.abort(
        new Error(mode === "interrupt" ? "server shutting down" : "worker shutting down"),
      );
    await Promise.race([
      Promise.allSettled(running.map((execution) => execution.done)),
      new Promise((resolve) => setTimeout(resolve, graceMs).unref()),
    ]);
  }

  private async executeClaimed(execution: Execution, toolContext: Record<string, unknown>): Promise<void> {
    const { store, leaseMs, logger } = this.options;
    const { claim } = execution;
    const heartbeat = setInterval(() => void this.renew(execution), Math.max(100, Math.floor(leaseMs / 3)));
    try {
      await this.run(execution, toolContext);
    } catch (error) {
      if (!execution.lost && execution.stopping !== "handover") {
        await markRunCrashed({
          runId: claim.runId,
          error,
          recorder: async () =>
            execution.recorder ??
            this.createRecorder(await this.requireRun(claim.runId), execution, toolContext),
          store,
          hub: this.options.hub,
          logger,
        });
      }
    } finally {
      clearInterval(heartbeat);
      this.active.delete(claim.runId);
      this.options.observer?.onExecutionEnd?.(claim.runId);
      if (!execution.lost) await store.releaseClaim(claim).catch(() => undefined);
    }
  }

  /** Renews the claim; a lost claim or a cancel request aborts the run. */
  private async renew(execution: Execution): Promise<void> {
    try {
      const renewed = await this.options.store.renewClaim(execution.claim, this.options.leaseMs);
      if (!renewed.held) this.loseClaim(execution);
      else if (renewed.cancelRequested) execution.controller.abort(new Error("cancelled by request"));
    } catch (error) {
      // The store is down: the lease runs on; writes wait for the store and are fenced when it is back.
      this.options.logger.warn("claim not renewed", { runId: execution.claim.runId, error: String(error) });
    }
  }

  private loseClaim(execution: Execution): void {
    if (execution.lost) return;
    execution.lost = true;
    this.options.logger.warn("run claimed by another worker: stopping it here", {
      runId: execution.claim.runId,
      epoch: execution.claim.epoch,
    });
    execution.controller.abort(new Error("claim lost"));
  }

  private async run(execution: Execution, toolContext: Record<string, unknown>): Promise<void> {
    const { store, logger, checkpoints } = this.options;
    const { claim, controller } = execution;
    const run = await store.getRun(claim.runId);
    if (!run) return;
    const recorder = this.createRecorder(run, execution, toolContext);
    execution.recorder = recorder;
    if (execution.stopping === "handover") recorder.seal();
    if (execution.stopping === "interrupt") {
      await recorder.append(interruptedEvent);
      return;
    }
    if (claim.cancelRequested) {
      if (run.pause) await store.deletePausedState(run.pause.resumeToken).catch(() => undefined);
      await recorder.append(cancelledEvent(run, "The run was cancelled."));
      return;
    }
    const recovering = checkpoints && claim.status === "running";
    const task = run.kind === "task" ? claim.work?.task : undefined;
    const taskHost = task ? undefined : this.options.taskHosts?.forRun(run, toolContext);
    const checkpoint = recovering ? await store.loadCheckpoint(run.id) : undefined;
    if (recovering)
      logger.info("run recovered from its last checkpoint", { runId: run.id, seq: checkpoint?.seq });
    try {
      await runJob({
        run,
        resume: recovering ? undefined : claim.work?.resume,
        ...(claim.work?.contextMeta && !recovering ? { contextMeta: claim.work.contextMeta } : {}),
        ...(claim.work?.answerSchema && !recovering ? { answerSchema: claim.work.answerSchema } : {}),
        ...(claim.work?.fork && !recovering ? { fork: claim.work.fork } : {}),
        recorder,
        signal: controller.signal,
        toolContext,
        store,
        createPlanner: this.options.createPlanner,
        logger,
        fence: claim.epoch,
        checkpoints,
        ...(recovering ? { recovery: { checkpoint: checkpoint?.state, lastSeq: run.lastSeq ?? 0 } } : {}),
        ...(task ? { task } : {}),
        ...(taskHost ? { taskHost } : {}),
      });
    } catch (error) {
      await recorder.flush();
      if (recorder.isSealed || execution.lost || execution.stopping === "handover") return;
      const cancelled = controller.signal.aborted && execution.stopping === undefined;
      await recordPlannerError({ run, recorder, error, cancelled, logger });
    } finally {
      await recorder.flush();
      logger.info("run stopped here", {
        runId: run.id,
        status:
          execution.stopping === "handover" && !TERMINAL_RUN_STATUSES.has(recorder.currentStatus)
            ? "handed over"
            : recorder.currentStatus,
      });
    }
  }

  private createRecorder(
    run: RunRecord,
    execution: Execution,
    toolContext: Record<string, unknown>,
  ): RunRecorder {
    return createRunRecorder(this.options, {
      run,
      toolContext,
      claim: { epoch: execution.claim.epoch, onFenced: () => this.loseClaim(execution) },
      checkpoints: this.options.checkpoints,
    });
  }

  private async requireRun(runId: string): Promise<RunRecord> {
    const run = await this.options.store.getRun(runId);
    if (!run) throw new Error(`Run "${runId}" no longer exists.`);
    return run;
  }
}
