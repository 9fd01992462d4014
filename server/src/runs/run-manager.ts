import { randomBytes } from "node:crypto";
import {
  TERMINAL_RUN_STATUSES,
  type AgentSpec,
  type ResumeRequest,
  type RunRecord,
  type StartRunRequest,
} from "@waddle/protocol";
import { ApiError, notFound } from "../shared/api-error.js";
import type { Logger } from "../shared/logger.js";
import { getContextSecrets, type SecretRedactor } from "../secrets/secret-redactor.js";
import type { WaddleStore } from "../store/waddle-store.js";
import type { PlannerFactory } from "./planner-factory.js";
import type { RunEventHub } from "./run-event-hub.js";
import { agentGone, AnsweredPauses, editNeedsArgs, resumeConflict } from "./resume-refusals.js";
import { runJob } from "./run-job.js";
import { cancelledEvent, markRunCrashed, recordPlannerError } from "./run-outcome-events.js";
import { RunLocks } from "./run-locks.js";
import { RunRecorder } from "./run-recorder.js";
import type { RunService, StartRunOptions } from "./run-service.js";
import { getToolContextKeys, RunToolContexts } from "./run-tool-contexts.js";
import { getRunAgent } from "./get-run-agent.js";

interface Job {
  runId: string;
  resume?: ResumeRequest;
  contextMeta?: Record<string, unknown>;
}

interface ActiveRun {
  controller: AbortController;
  /** Set once the job has read its run; until then `close` leaves the job to interrupt itself. */
  recorder?: RunRecorder;
  done: Promise<void>;
}

export interface RunManagerOptions {
  store: WaddleStore;
  hub: RunEventHub;
  createPlanner: PlannerFactory;
  redactor: SecretRedactor;
  logger: Logger;
  maxConcurrentRuns: number;
  /**
   * Refuses a spec before its run is queued or resumed, by throwing (the server's LLM endpoint policy throws
   * `LlmEndpointError`, answered 422), so that nothing is sent for a run that cannot go.
   */
  checkSpec?: (spec: AgentSpec) => void;
}

const INTERRUPTED_MESSAGE = "The server stopped while this run was going; start it again.";

/** A new run id: `run_` and 16 random hex characters. */
export function createRunId(): string {
  return `run_${randomBytes(8).toString("hex")}`;
}

/**
 * Starts, queues, cancels and resumes runs. At most `maxConcurrentRuns` planners run at once; the rest
 * wait in a FIFO queue as `queued`. Every event goes through a `RunRecorder` (stored, then published).
 */
export class RunManager implements RunService {
  private readonly queue: Job[] = [];
  private readonly active = new Map<string, ActiveRun>();
  /** Cancel and resume of one run go one at a time (see RunLocks). */
  private readonly locks = new RunLocks();
  /** Tool contexts live only in memory: they may hold secrets and are never stored (only their keys). */
  private readonly toolContexts = new RunToolContexts();
  /** To tell a second answer to a pause that it came second (resume-refusals.ts). */
  private readonly answered = new AnsweredPauses();
  private closing = false;

  constructor(private readonly options: RunManagerOptions) {}

  get activeCount(): number {
    return this.active.size;
  }

  get queuedCount(): number {
    return this.queue.length;
  }

  /** Marks runs that a previous process left `running` (or queued) as interrupted, with an event. */
  async recoverRuns(): Promise<string[]> {
    const { store } = this.options;
    const interrupted: string[] = [];
    for (const run of await store.listRuns({ statuses: ["running", "queued"] })) {
      if (run.status === "queued" && run.pause) {
        const paused = await store.updateRun(run.id, { status: "paused" });
        this.options.hub.publishStatus({ runId: run.id, status: "paused", lastSeq: paused.lastSeq ?? 0 });
        continue;
      }
      await this.createRecorder(run).append({
        type: "run_interrupted",
        data: { message: INTERRUPTED_MESSAGE },
      });
      interrupted.push(run.id);
    }
    return interrupted;
  }

  async startRun(request: StartRunRequest, options: StartRunOptions = {}): Promise<{ runId: string }> {
    this.assertOpen();
    const { store } = this.options;
    const agent = await getRunAgent(store, request);
    this.options.checkSpec?.(agent.spec);
    const runId = createRunId();
    const toolContextKeys = getToolContextKeys(request.toolContext);
    await store.createRun({
      id: runId,
      agentId: agent.id,
      agentVersion: agent.version,
      query: request.query,
      status: "queued",
      ...(toolContextKeys ? { toolContextKeys } : {}),
    });
    this.toolContexts.set(runId, request.toolContext);
    this.options.hub.publishStatus({ runId, status: "queued", lastSeq: 0 });
    this.enqueue({ runId, ...(options.contextMeta ? { contextMeta: options.contextMeta } : {}) });
    return { runId };
  }

  cancelRun(runId: string): Promise<RunRecord> {
    return this.locks.run(runId, () => this.cancelNow(runId));
  }

  private async cancelNow(runId: string): Promise<RunRecord> {
    const run = await this.requireRun(runId);
    if (TERMINAL_RUN_STATUSES.has(run.status)) {
      throw new ApiError("invalid_state", `Run "${runId}" has already ended (${run.status}).`, {
        status: run.status,
      });
    }
    const active = this.active.get(runId);
    if (active) {
      active.controller.abort(new Error("cancelled by request"));
      // A tool that ignores its signal must not hold the request: answer with the status it has by then.
      await Promise.race([active.done, new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
    }
    // Queued, paused, or a job that had just paused when the abort came.
    const current = await this.requireRun(runId);
    if (!TERMINAL_RUN_STATUSES.has(current.status) && !this.active.has(runId)) {
      const index = this.queue.findIndex((job) => job.runId === runId);
      if (index >= 0) this.queue.splice(index, 1);
      const recorder = this.createRecorder(current);
      if (current.pause) {
        await this.options.store.deletePausedState(current.pause.resumeToken);
        await recorder.append(cancelledEvent(current, "The run was cancelled while it was paused."));
      } else {
        await recorder.patch({ status: "cancelled", finishedAt: new Date().toISOString() });
      }
      this.toolContexts.delete(runId);
    }
    return this.requireRun(runId);
  }

  async resumeRun(runId: string, request: ResumeRequest): Promise<{ runId: string }> {
    this.assertOpen();
    // A pause is published before its planner call returns: let that job end before resuming. Only then:
    // a job that is still running would hold this request until the run ends, to answer 409 after all.
    const active = this.active.get(runId);
    if (active?.recorder?.currentStatus === "paused") await active.done;
    // Two resumes (or a resume and a cancel) that both read "paused" would both act on it: the second job's
    // failure (token spent) would be recorded after the first one's events, or after the cancel.
    return this.locks.run(runId, () => this.acceptResume(runId, request));
  }

  private async acceptResume(runId: string, request: ResumeRequest): Promise<{ runId: string }> {
    const run = await this.requireRun(runId);
    const { resumeToken } = request;
    if (
      run.status !== "paused" ||
      run.pause?.resumeToken !== resumeToken ||
      this.queue.some((job) => job.runId === runId) ||
      this.active.has(runId)
    ) {
      throw resumeConflict({ run, resumeToken, answered: this.answered });
    }
    if (request.decision === "edit" && request.args === undefined) throw editNeedsArgs(run);
    const agent = await this.options.store.getAgentVersion(run.agentId, run.agentVersion);
    if (!agent) throw agentGone(run);
    this.options.checkSpec?.(agent.spec);
    this.toolContexts.acceptResume(run, request);
    await this.createRecorder(run).patch({
      status: "queued",
      error: null,
      ...(request.toolContext ? { toolContextKeys: getToolContextKeys(request.toolContext) ?? null } : {}),
    });
    this.answered.remember(runId, resumeToken);
    this.enqueue({ runId, resume: request });
    return { runId };
  }

  /**
   * Stops for shutdown: queued and running runs are marked interrupted (with an event), planners are
   * aborted and awaited (up to `graceMs`); paused runs stay resumable.
   */
  async close(graceMs = 3_000): Promise<void> {
    this.closing = true;
    const queued = this.queue.splice(0);
    for (const job of queued) {
      const run = await this.options.store.getRun(job.runId);
      if (!run) continue;
      if (job.resume) {
        const paused = await this.options.store.updateRun(run.id, { status: "paused" });
        this.options.hub.publishStatus({ runId: run.id, status: "paused", lastSeq: paused.lastSeq ?? 0 });
      } else {
        await this.createRecorder(run).append({
          type: "run_interrupted",
          data: { message: INTERRUPTED_MESSAGE },
        });
      }
    }
    const running = [...this.active.values()];
    // A job that already recorded its pause is only saving its state: let it end, paused and resumable.
    const stopping = running.filter((active) => active.recorder?.currentStatus !== "paused");
    await Promise.all(
      stopping.map((active) =>
        active.recorder?.append({ type: "run_interrupted", data: { message: INTERRUPTED_MESSAGE } }),
      ),
    );
    for (const active of stopping) active.controller.abort(new Error("server shutting down"));
    await Promise.race([
      Promise.allSettled(running.map((active) => active.done)),
      new Promise((resolve) => setTimeout(resolve, graceMs).unref()),
    ]);
  }

  private assertOpen(): void {
    if (this.closing)
      throw new ApiError("invalid_state", "The server is shutting down: try again once it is back.");
  }

  private async requireRun(runId: string): Promise<RunRecord> {
    const run = await this.options.store.getRun(runId);
    if (!run) throw notFound("Run", runId);
    return run;
  }

  private createRecorder(run: RunRecord): RunRecorder {
    const context = this.toolContexts.get(run.id);
    return new RunRecorder({
      runId: run.id,
      lastSeq: run.lastSeq ?? 0,
      usage: run.usage,
      status: run.status,
      store: this.options.store,
      hub: this.options.hub,
      redactor: context ? this.options.redactor.with(getContextSecrets(context)) : this.options.redactor,
      logger: this.options.logger,
    });
  }

  private enqueue(job: Job): void {
    this.queue.push(job);
    this.pump();
  }

  private pump(): void {
    while (!this.closing && this.active.size < this.options.maxConcurrentRuns && this.queue.length > 0) {
      const job = this.queue.shift()!;
      const controller = new AbortController();
      const entry: ActiveRun = {
        controller,
        recorder: undefined as unknown as RunRecorder,
        done: Promise.resolve(),
      };
      this.active.set(job.runId, entry);
      entry.done = this.execute(job, entry)
        .catch((error: unknown) => this.recordCrash(job.runId, entry, error))
        .finally(() => {
          this.active.delete(job.runId);
          this.pump();
        });
    }
  }

  private async execute(job: Job, entry: ActiveRun): Promise<void> {
    const { store, logger } = this.options;
    const run = await store.getRun(job.runId);
    if (!run) return;
    const recorder = this.createRecorder(run);
    entry.recorder = recorder;
    if (this.closing) {
      await recorder.append({ type: "run_interrupted", data: { message: INTERRUPTED_MESSAGE } });
      return;
    }
    try {
      await runJob({
        run,
        resume: job.resume,
        ...(job.contextMeta ? { contextMeta: job.contextMeta } : {}),
        recorder,
        signal: entry.controller.signal,
        toolContext: this.toolContexts.get(run.id) ?? {},
        store,
        createPlanner: this.options.createPlanner,
        logger,
      });
    } catch (error) {
      await recorder.flush();
      if (recorder.isSealed) return;
      const cancelled = entry.controller.signal.aborted && !this.closing;
      await recordPlannerError({ run, recorder, error, cancelled, logger });
    } finally {
      if (TERMINAL_RUN_STATUSES.has(recorder.currentStatus)) this.toolContexts.delete(run.id);
      logger.info("run stopped", { runId: run.id, status: recorder.currentStatus });
    }
  }

  /** An error outside the planner's own handling (e.g. a store that throws) must not escape `pump`. */
  private async recordCrash(runId: string, entry: ActiveRun, error: unknown): Promise<void> {
    try {
      await markRunCrashed({
        runId,
        error,
        recorder: async () => entry.recorder ?? this.createRecorder(await this.requireRun(runId)),
        store: this.options.store,
        hub: this.options.hub,
        logger: this.options.logger,
      });
    } finally {
      this.toolContexts.delete(runId);
    }
  }
}
