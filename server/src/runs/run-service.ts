import { randomBytes } from "node:crypto";
import {
  TERMINAL_RUN_STATUSES,
  type AgentSpec,
  type ForkRunRequest,
  type ResumeRequest,
  type RunOrigin,
  type RunRecord,
  type StartRunRequest,
} from "@waddle/protocol";
import type { BackgroundJob } from "@waddle/planner";
import { ApiError, notFound } from "../shared/api-error.js";
import type { RunClaim } from "../store/waddle-store.js";
import { createRunRecorder, type RecorderParts } from "./create-run-recorder.js";
import { ForkService } from "./fork-service.js";
import type { PlannerFactory } from "./planner-factory.js";
import { getRunAgent } from "./get-run-agent.js";
import { agentGone, AnsweredPauses, editNeedsArgs, resumeConflict } from "./resume-refusals.js";
import { RunLocks } from "./run-locks.js";
import { cancelledEvent } from "./run-outcome-events.js";
import type { RunQueuePort } from "./run-queue-port.js";
import { getToolContextKeys, RunToolContexts } from "./run-tool-contexts.js";

/** What a run may get besides the REST request: set by the server's own callers, never by a client's body. */
export interface StartRunOptions {
  /**
   * Non-secret context the LLM sees beside the query (the planner's `contextMeta`): the earlier messages of
   * a chat completion. Stored with the run's work until it starts; a paused run keeps it in its saved state.
   */
  contextMeta?: Record<string, unknown>;
  /** The run's answer schema, over the agent's (`/v1`'s `response_format`): its answer is then an object. */
  answerSchema?: Record<string, unknown>;
  /** The run's id, when the caller named it before (a session writes its turn first). */
  runId?: string;
  /** A session's turn or background task. */
  origin?: RunOrigin;
  /** A background task's job (`origin.kind` "task"): kept with the run's work, so any worker can run it. */
  task?: BackgroundJob;
}

/** What the REST routes, `/v1` and `/mcp` ask of the runs. */
export interface RunCommands {
  /** Queues a run of the agent's latest (or given) version; answers at once with its id. */
  startRun(request: StartRunRequest, options?: StartRunOptions): Promise<{ runId: string }>;
  /**
   * Cancels a queued, running or paused run; `invalid_state` once it has ended. `reason`: the words a paused
   * run's cancel answer says instead of the default (who ended it and why).
   */
  cancelRun(runId: string, options?: { reason?: string }): Promise<RunRecord>;
  /** Continues a paused run with a decision; `invalid_state` when it is not paused or the token is stale. */
  resumeRun(runId: string, request: ResumeDecisionInput): Promise<{ runId: string }>;
  /** Forks a paused or ended run from a step (`POST /api/runs/:id/fork`, see `ForkService`). */
  forkRun?(runId: string, request: ForkRunRequest): Promise<{ runId: string }>;
}

/**
 * Refuses a spec by throwing; `offline`: the run goes on the offline model, so its LLM endpoints are not
 * checked. Asynchronous where it reads the stored credentials.
 */
export type SpecCheck = (spec: AgentSpec, options?: { offline?: boolean }) => void | Promise<void>;

export interface RunServiceOptions extends RecorderParts {
  /** Where queued runs go to be executed: the in-process pump, or BullMQ in queue mode. */
  queue: RunQueuePort;
  /** This process's name in claims. */
  owner: string;
  /** How long a claim lasts unless renewed; a queued run is not queued again by a sweeper for this long. */
  leaseMs: number;
  /**
   * Refuses a spec before its run is queued or resumed, by throwing (the server's LLM endpoint policy throws
   * `LlmEndpointError`, answered 422), so that nothing is sent for a run that cannot go.
   */
  checkSpec?: SpecCheck;
  /** How long a cancel of a running run waits for it to be recorded before answering (default 5 s). */
  cancelWaitMs?: number;
  /** Builds planners to check a fork's edit against the tools of the version it runs. */
  createPlanner?: PlannerFactory;
  /** Tracing on: the trace context each new run keeps (a child of the request's, when it carried one). */
  createRunTrace?: RunTraceFactory;
  /** The name of who asks for a new run (the request's key), kept as `origin.startedBy` (the inbox shows it). */
  getStartedBy?: () => string | undefined;
}

/** The trace context a new run keeps in its origin (see `RunOrigin.trace`). */
export type RunTraceFactory = () => NonNullable<RunOrigin["trace"]> | undefined;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A new run id: `run_` and 16 random hex characters. */
export function createRunId(): string {
  return `run_${randomBytes(8).toString("hex")}`;
}

/** A name for this process in claims: its pid and a random suffix. */
export function createInstanceName(): string {
  return `${process.pid}-${randomBytes(3).toString("hex")}`;
}

/** A decision on a pause, with who decided (the key's name): the run's `resumed` event carries it. */
export type ResumeDecisionInput = ResumeRequest & { actor?: string };

/**
 * Starts, cancels and resumes runs, whatever executes them (`queue`). Every decision is one conditional
 * write in the store, so that any process may take it and the first one wins: a start creates the run
 * `queued` with its work; a resume moves the run from paused (with that token, and no live claim) to
 * queued; a cancel of a queued or paused run claims it first, and of a running one sets the store's flag
 * and wakes its executor. Cancel and resume of one run also go one at a time in this process (RunLocks).
 */
export class RunService implements RunCommands {
  /** Tool contexts live only in memory: they may hold secrets and are never stored (only their keys). */
  private readonly toolContexts = new RunToolContexts();
  /** To tell a second answer to a pause that it came second (resume-refusals.ts). */
  private readonly answered = new AnsweredPauses();
  private readonly locks = new RunLocks();
  private closing = false;

  constructor(private readonly options: RunServiceOptions) {
    options.hub.onStatus((message) => {
      if (TERMINAL_RUN_STATUSES.has(message.status)) this.toolContexts.delete(message.runId);
    });
  }

  get activeCount(): number {
    return this.options.queue.activeCount;
  }

  get queuedCount(): number {
    return this.options.queue.queuedCount;
  }

  /** Settles what a previous process left going (see the queue's `recoverRuns`). */
  recoverRuns(): Promise<string[]> {
    return this.options.queue.recoverRuns();
  }

  /** Refuses new runs and answers, and stops the queue (see its `close`). */
  async close(graceMs?: number): Promise<void> {
    this.closing = true;
    await this.options.queue.close(graceMs);
  }

  async startRun(request: StartRunRequest, options: StartRunOptions = {}): Promise<{ runId: string }> {
    this.assertOpen();
    const { store } = this.options;
    const agent = await getRunAgent(store, request);
    await this.options.checkSpec?.(agent.spec, request.offline ? { offline: true } : {});
    const runId = options.runId ?? createRunId();
    const toolContextKeys = getToolContextKeys(request.toolContext);
    const trace = this.options.createRunTrace?.();
    const startedBy = options.origin?.startedBy ?? this.options.getStartedBy?.();
    const origin =
      trace || startedBy
        ? { ...options.origin, ...(trace ? { trace } : {}), ...(startedBy ? { startedBy } : {}) }
        : options.origin;
    await store.createRun({
      id: runId,
      agentId: agent.id,
      agentVersion: agent.version,
      query: request.query,
      status: "queued",
      leaseMs: this.options.leaseMs,
      ...(request.offline ? { offline: true, offlineChosen: true } : {}),
      ...(toolContextKeys ? { toolContextKeys } : {}),
      ...(options.contextMeta || options.task || options.answerSchema
        ? {
            work: {
              ...(options.contextMeta ? { contextMeta: options.contextMeta } : {}),
              ...(options.answerSchema ? { answerSchema: options.answerSchema } : {}),
              ...(options.task ? { task: options.task } : {}),
            },
          }
        : {}),
      ...(origin ? { origin } : {}),
    });
    this.toolContexts.set(runId, request.toolContext);
    this.options.hub.publishStatus({ runId, status: "queued", lastSeq: 0 });
    await this.options.queue.add({
      runId,
      epoch: 0,
      ...(request.toolContext ? { toolContext: request.toolContext } : {}),
    });
    return { runId };
  }

  /**
   * Queues a run the caller created itself (`queued`, with its work, e.g. a fork with its copied prefix):
   * its toolContext is kept in memory for the job, as for `startRun`.
   */
  async queueCreated(run: {
    runId: string;
    lastSeq: number;
    toolContext?: Record<string, unknown>;
  }): Promise<void> {
    this.assertOpen();
    const { runId, toolContext } = run;
    this.toolContexts.set(runId, toolContext);
    this.options.hub.publishStatus({ runId, status: "queued", lastSeq: run.lastSeq });
    await this.options.queue.add({ runId, epoch: 0, ...(toolContext ? { toolContext } : {}) });
  }

  forkRun(runId: string, request: ForkRunRequest): Promise<{ runId: string }> {
    this.assertOpen();
    const { createPlanner } = this.options;
    if (!createPlanner) throw new ApiError("invalid_state", "This server does not run forks.");
    const { store, leaseMs } = this.options;
    const forks = new ForkService({ store, runs: this, createPlanner, leaseMs, createRunId });
    return forks.fork(runId, request);
  }

  cancelRun(runId: string, options: { reason?: string } = {}): Promise<RunRecord> {
    return this.locks.run(runId, () => this.cancelNow(runId, options.reason));
  }

  private async cancelNow(runId: string, reason?: string): Promise<RunRecord> {
    const { store, queue } = this.options;
    const run = await this.requireRun(runId);
    if (TERMINAL_RUN_STATUSES.has(run.status)) {
      throw new ApiError("invalid_state", `Run "${runId}" has already ended (${run.status}).`, {
        status: run.status,
      });
    }
    if (await this.cancelUnclaimed(runId, reason)) return this.requireRun(runId);
    // Running: the flag survives a lost wake-up; the wake-up is fast.
    await store.requestCancel(runId);
    queue.wakeCancel(runId);
    // A tool that ignores its signal must not hold the request: answer with the status it has by then.
    const deadline = Date.now() + (this.options.cancelWaitMs ?? 5_000);
    await queue.awaitExecution(runId, deadline - Date.now());
    for (;;) {
      const current = await this.requireRun(runId);
      if (current.status === "paused") {
        // It had just paused when the abort came: end it as a paused run.
        await queue.awaitPausedExecution(runId);
        await this.cancelUnclaimed(runId, reason);
        return this.requireRun(runId);
      }
      if (current.status !== "running" && current.status !== "queued") return current;
      if (Date.now() >= deadline) return current;
      await sleep(50);
    }
  }

  /**
   * Queued, paused, or running on an executor that stopped: takes the run from under any executor that
   * would start or continue it, then ends it here. False when a live claim holds it.
   */
  private async cancelUnclaimed(runId: string, reason?: string): Promise<boolean> {
    const { store } = this.options;
    const claim = await store.claimRun({
      runId,
      owner: `${this.options.owner}/cancel`,
      leaseMs: this.options.leaseMs,
      statuses: ["queued", "paused", "running"],
    });
    if (!claim) return false;
    try {
      await this.cancelClaimed(claim, reason);
    } finally {
      await store.releaseClaim(claim).catch(() => undefined);
    }
    this.toolContexts.delete(runId);
    return true;
  }

  /** Ends a run this process claimed to cancel, with the event a cancel writes. */
  private async cancelClaimed(claim: RunClaim, reason?: string): Promise<void> {
    const run = await this.requireRun(claim.runId);
    const recorder = createRunRecorder(this.options, {
      run,
      claim: { epoch: claim.epoch, onFenced: () => undefined },
    });
    if (run.pause) {
      await this.options.store.deletePausedState(run.pause.resumeToken);
      await recorder.append(cancelledEvent(run, reason ?? "The run was cancelled while it was paused."));
    } else if (run.status === "running") {
      await recorder.append(cancelledEvent(run, "The run was cancelled."));
    } else {
      await recorder.patch({ status: "cancelled", finishedAt: new Date().toISOString() });
    }
  }

  async resumeRun(runId: string, request: ResumeDecisionInput): Promise<{ runId: string }> {
    this.assertOpen();
    // A pause is published before its planner call returns: let that execution end before resuming. Only
    // then: one that is still running would hold this request until the run ends, to answer 409 after all.
    await this.options.queue.awaitPausedExecution(runId);
    // Two resumes (or a resume and a cancel) of this process go one after the other: the loser is told what
    // the winner did, not that the run was busy.
    return this.locks.run(runId, () => this.acceptResume(runId, request));
  }

  private async acceptResume(runId: string, request: ResumeDecisionInput): Promise<{ runId: string }> {
    const { store } = this.options;
    const run = await this.requireRun(runId);
    const { resumeToken } = request;
    if (run.status !== "paused" || run.pause?.resumeToken !== resumeToken) {
      // Answered in another process (this one does not remember it): the run's events say so.
      if (await this.wasAnswered(runId, resumeToken)) this.answered.remember(runId, resumeToken);
      throw resumeConflict({ run, resumeToken, answered: this.answered });
    }
    if (request.decision === "edit" && request.args === undefined) throw editNeedsArgs(run);
    const agent = await store.getAgentVersion(run.agentId, run.agentVersion);
    if (!agent) throw agentGone(run);
    await this.options.checkSpec?.(agent.spec, run.offlineChosen ? { offline: true } : {});
    this.toolContexts.acceptResume(run, request);
    const { toolContext, ...resume } = request;
    const queued = await store.queueResume({
      runId,
      resumeToken,
      work: { resume },
      leaseMs: this.options.leaseMs,
      patch: {
        error: null,
        ...(toolContext ? { toolContextKeys: getToolContextKeys(toolContext) ?? null } : {}),
      },
    });
    // Another answer (in any process) or a cancel came first.
    if (!queued) {
      this.answered.remember(runId, resumeToken);
      throw resumeConflict({ run: await this.requireRun(runId), resumeToken, answered: this.answered });
    }
    this.answered.remember(runId, resumeToken);
    this.options.hub.publishStatus({ runId, status: "queued", lastSeq: queued.run.lastSeq ?? 0 });
    const context = this.toolContexts.get(runId);
    await this.options.queue.add({
      runId,
      epoch: queued.epoch,
      ...(context ? { toolContext: context } : {}),
    });
    return { runId };
  }

  /**
   * Ends a paused run as failed with `error`, once: the run is claimed while it waits at this pause (no
   * resume or cancel came first, on any instance), and its `run_failed` names `actor`. False when something
   * else answered or ended it first. The server's answer to a pause past its time (`approval.onTimeout`).
   */
  failPausedRun(
    runId: string,
    request: { resumeToken: string; error: { code: string; message: string }; actor: string },
  ): Promise<boolean> {
    return this.locks.run(runId, async () => {
      const { store } = this.options;
      const claim = await store.claimRun({
        runId,
        owner: `${this.options.owner}/decide`,
        leaseMs: this.options.leaseMs,
        statuses: ["paused"],
      });
      if (!claim) return false;
      try {
        const run = await this.requireRun(runId);
        if (run.pause?.resumeToken !== request.resumeToken) return false;
        const recorder = createRunRecorder(this.options, {
          run,
          claim: { epoch: claim.epoch, onFenced: () => undefined },
        });
        await store.deletePausedState(request.resumeToken);
        await recorder.append({ type: "run_failed", data: { error: request.error, actor: request.actor } });
        this.answered.remember(runId, request.resumeToken);
        return !recorder.isFenced;
      } finally {
        await store.releaseClaim(claim).catch(() => undefined);
      }
    });
  }

  /**
   * True when the run paused with this token and was answered since, from anywhere: resumed, or failed by
   * the server at the pause's due time (`failPausedRun` names an actor).
   */
  private async wasAnswered(runId: string, resumeToken: string): Promise<boolean> {
    const events = await this.options.store.listEvents(runId);
    const paused = events.findIndex(
      (event) => event.type === "pause" && event.data.resumeToken === resumeToken,
    );
    return (
      paused >= 0 &&
      events
        .slice(paused + 1)
        .some((event) => event.type === "resumed" || (event.type === "run_failed" && event.data.actor))
    );
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
}
