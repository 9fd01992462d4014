import { randomBytes } from "node:crypto";
import {
  TERMINAL_RUN_STATUSES,
  type AgentSpec,
  type ResumeRequest,
  type RunRecord,
  type StartRunRequest,
} from "@waddle/protocol";
import { agentGone, AnsweredPauses, editNeedsArgs, resumeConflict } from "../runs/resume-refusals.js";
import type { RunEventHub } from "../runs/run-event-hub.js";
import { createRunId } from "../runs/run-manager.js";
import { cancelledEvent } from "../runs/run-outcome-events.js";
import { RunRecorder } from "../runs/run-recorder.js";
import type { RunService, StartRunOptions } from "../runs/run-service.js";
import { getToolContextKeys, RunToolContexts } from "../runs/run-tool-contexts.js";
import type { SecretRedactor } from "../secrets/secret-redactor.js";
import { ApiError, notFound } from "../shared/api-error.js";
import type { Logger } from "../shared/logger.js";
import type { RunClaim, WaddleStore } from "../store/waddle-store.js";
import type { RunQueue } from "./run-queue.js";
import { getRunAgent } from "../runs/get-run-agent.js";

export interface QueuedRunServiceOptions {
  store: WaddleStore;
  queue: RunQueue;
  /** Where this instance publishes (the cluster bridge forwards to the other instances). */
  hub: RunEventHub;
  redactor: SecretRedactor;
  logger: Logger;
  /** This instance's name in claims. */
  owner: string;
  leaseMs: number;
  /** Sends a cancel wake-up to every instance (the worker running the run aborts it at once). */
  wakeCancel: (runId: string) => void;
  checkSpec?: (spec: AgentSpec) => void;
  /** How long a cancel waits for the worker to record it before answering (default 5 s). */
  cancelWaitMs?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The runs API of an instance in queue mode: runs are created in the store and queued as jobs for any
 * worker. Every decision is one conditional write in the store, so that any instance may take it and the
 * first one wins: a resume moves the run from paused (with that token) to queued; a cancel of a queued or
 * paused run claims it first; a cancel of a running run sets the store's flag and wakes its worker.
 */
export class QueuedRunService implements RunService {
  private readonly toolContexts = new RunToolContexts();
  private readonly answered = new AnsweredPauses();

  constructor(private readonly options: QueuedRunServiceOptions) {}

  async startRun(request: StartRunRequest, options: StartRunOptions = {}): Promise<{ runId: string }> {
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
      leaseMs: this.options.leaseMs,
      ...(toolContextKeys ? { toolContextKeys } : {}),
      ...(options.contextMeta ? { work: { contextMeta: options.contextMeta } } : {}),
    });
    this.toolContexts.set(runId, request.toolContext);
    this.options.hub.publishStatus({ runId, status: "queued", lastSeq: 0 });
    await this.options.queue.add(runId, 0, request.toolContext);
    return { runId };
  }

  async cancelRun(runId: string): Promise<RunRecord> {
    const { store } = this.options;
    const run = await this.requireRun(runId);
    if (TERMINAL_RUN_STATUSES.has(run.status)) {
      throw new ApiError("invalid_state", `Run "${runId}" has already ended (${run.status}).`, {
        status: run.status,
      });
    }
    // Queued, paused, or running on a worker that stopped: take it from under any worker that would start
    // or continue it, then end it here.
    const claim = await store.claimRun({
      runId,
      owner: `${this.options.owner}/cancel`,
      leaseMs: this.options.leaseMs,
      statuses: ["queued", "paused", "running"],
    });
    if (claim) {
      try {
        await this.cancelClaimed(claim);
      } finally {
        await store.releaseClaim(claim).catch(() => undefined);
      }
      this.toolContexts.delete(runId);
      return this.requireRun(runId);
    }
    // Running on a worker (here or elsewhere): the flag survives a lost wake-up; the wake-up is fast.
    await store.requestCancel(runId);
    this.options.wakeCancel(runId);
    const deadline = Date.now() + (this.options.cancelWaitMs ?? 5_000);
    for (;;) {
      const current = await this.requireRun(runId);
      if (current.status !== "running" && current.status !== "queued") return current;
      if (Date.now() >= deadline) return current;
      await sleep(50);
    }
  }

  async resumeRun(runId: string, request: ResumeRequest): Promise<{ runId: string }> {
    const { store } = this.options;
    const run = await this.requireRun(runId);
    const { resumeToken } = request;
    if (run.status !== "paused" || run.pause?.resumeToken !== resumeToken) {
      // Answered on another instance (this one does not remember it): the run's events say so.
      if (await this.wasAnswered(runId, resumeToken)) this.answered.remember(runId, resumeToken);
      throw resumeConflict({ run, resumeToken, answered: this.answered });
    }
    if (request.decision === "edit" && request.args === undefined) throw editNeedsArgs(run);
    const agent = await store.getAgentVersion(run.agentId, run.agentVersion);
    if (!agent) throw agentGone(run);
    this.options.checkSpec?.(agent.spec);
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
    // Another answer (on any instance) or a cancel came first.
    if (!queued) {
      this.answered.remember(runId, resumeToken);
      throw resumeConflict({ run: await this.requireRun(runId), resumeToken, answered: this.answered });
    }
    this.answered.remember(runId, resumeToken);
    this.options.hub.publishStatus({ runId, status: "queued", lastSeq: queued.run.lastSeq ?? 0 });
    await this.options.queue.add(runId, queued.epoch, this.toolContexts.get(runId));
    return { runId };
  }

  /** True when the run paused with this token and has resumed since (the answer came from anywhere). */
  private async wasAnswered(runId: string, resumeToken: string): Promise<boolean> {
    const events = await this.options.store.listEvents(runId);
    const paused = events.findIndex(
      (event) => event.type === "pause" && event.data.resumeToken === resumeToken,
    );
    return paused >= 0 && events.slice(paused + 1).some((event) => event.type === "resumed");
  }

  /** Ends a queued or paused run this instance claimed, with the event a cancel writes. */
  private async cancelClaimed(claim: RunClaim): Promise<void> {
    const run = await this.requireRun(claim.runId);
    const recorder = new RunRecorder({
      runId: run.id,
      lastSeq: run.lastSeq ?? 0,
      usage: run.usage,
      status: run.status,
      store: this.options.store,
      hub: this.options.hub,
      redactor: this.options.redactor,
      logger: this.options.logger,
      claim: { epoch: claim.epoch, onFenced: () => undefined },
    });
    if (run.pause) {
      await this.options.store.deletePausedState(run.pause.resumeToken);
      await recorder.append(cancelledEvent(run, "The run was cancelled while it was paused."));
    } else if (run.status === "running") {
      await recorder.append(cancelledEvent(run, "The run was cancelled."));
    } else {
      await recorder.patch({ status: "cancelled", finishedAt: new Date().toISOString() });
    }
  }

  private async requireRun(runId: string): Promise<RunRecord> {
    const run = await this.options.store.getRun(runId);
    if (!run) throw notFound("Run", runId);
    return run;
  }
}

/** A name for this instance in claims: host, pid and a random suffix. */
export function createInstanceName(): string {
  return `${process.pid}-${randomBytes(3).toString("hex")}`;
}
