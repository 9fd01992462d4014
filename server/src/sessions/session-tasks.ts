import {
  TERMINAL_RUN_STATUSES,
  TERMINAL_TASK_STATUSES,
  type AgentSpec,
  type RunRecord,
  type SessionRecord,
  type SessionTask,
} from "@waddle/protocol";
import {
  applySessionTaskOutcome,
  getSessionWaitResult,
  isPlannerError,
  spawnSessionTask,
  type HostedWaitResult,
  type SessionTaskLimits,
  type SessionTaskOutcome,
  type TaskHost,
} from "@waddle/planner";
import { createPreview } from "@waddle/planner/internal";
import { ApiError, notFound } from "../shared/api-error.js";
import type { Logger } from "../shared/logger.js";
import type { RunEventHub } from "../runs/run-event-hub.js";
import { createRunId, type RunCommands } from "../runs/run-service.js";
import type { TaskHostSource } from "../runs/run-executor.js";
import { isStoreError, type WaddleStore } from "../store/waddle-store.js";
import { sessionConflict, type SessionService } from "./session-service.js";

export interface SessionTasksOptions {
  store: WaddleStore;
  sessions: SessionService;
  runs: RunCommands;
  hub: RunEventHub;
  logger: Logger;
  /** How often a turn that keeps its turn (`retain_turn`) reads the session again (default 500 ms). */
  waitPollMs?: number;
}

/** The largest task result a session keeps (a bounded preview, as run events carry). */
const RESULT_PREVIEW_CHARS = 2_000;

/**
 * A session's background tasks (docs/background-tasks.md, "Tasks with a host"): each is a run of its own
 * (`kind: "task"`, `parentRunId`, `sessionId`) queued through the run service, so it is stored, watchable,
 * cancellable and recovered like any run. This is the `TaskHost` of a session's turns: a spawn is one
 * conditional write of the session (the planner's session task ledger decides the task's id, group and
 * whether it starts now or waits for a slot), and every task run's end — heard on any instance — becomes
 * its `task_update`, its group's report and merges, in the same kind of write, once.
 */
export class SessionTasks implements TaskHostSource {
  /** A turn's toolContext, for its tasks that start later (never stored). */
  private readonly toolContexts = new Map<string, Readonly<Record<string, unknown>>>();
  private readonly specs = new Map<string, AgentSpec>();

  constructor(private readonly options: SessionTasksOptions) {
    options.hub.onStatus((message) => {
      if (!TERMINAL_RUN_STATUSES.has(message.status)) return;
      void this.onRunEnded(message.runId).catch((error: unknown) =>
        options.logger.error("session task update failed", { runId: message.runId, error: String(error) }),
      );
    });
  }

  /** The task host of a session's turn; undefined for other runs. */
  forRun(run: RunRecord, toolContext: Readonly<Record<string, unknown>>): TaskHost | undefined {
    if (run.sessionId === undefined || run.turn === undefined || run.kind === "task") return undefined;
    if (Object.keys(toolContext).length > 0) this.toolContexts.set(run.id, toolContext);
    const sessionId = run.sessionId;
    const turn = run.turn;
    return {
      spawn: async ({ action }) => {
        const limits = getLimits(await this.getSpec(run.agentId, run.agentVersion));
        const runId = createRunId();
        type Spawned = ReturnType<typeof spawnSessionTask> | Error;
        const change = await this.options.sessions.update<Spawned>(sessionId, (record) => {
          try {
            const spawned = spawnSessionTask(record, { action, turn, parentRunId: run.id, runId, limits });
            return { events: spawned.events, result: spawned };
          } catch (error) {
            if (isPlannerError(error)) return { events: [], result: error };
            throw error;
          }
        });
        if (change.result instanceof Error) throw change.result;
        const spawned = change.result;
        if (spawned.task.status === "running") {
          const task = change.record.tasks.find((item) => item.taskId === spawned.task.taskId);
          if (task) await this.startTaskRun(change.record, task);
        }
        return spawned.task;
      },
      wait: (request) => this.wait(sessionId, request),
      // The turn's `turn_ended` (or pause) write seals its groups, whichever instance hears it.
      yieldTurn: () => undefined,
    };
  }

  /**
   * The session with its tasks brought up to their runs: a task whose run ended without the session
   * hearing it (a restart: the run is `interrupted`) gets its `task_update`, and a task that should be
   * running but has no run yet (its starter stopped) is started.
   */
  async reconcile(record: SessionRecord): Promise<SessionRecord> {
    let changed = false;
    for (const task of record.tasks) {
      if (TERMINAL_TASK_STATUSES.has(task.status)) continue;
      const run = await this.options.store.getRun(task.runId);
      if (!run) {
        if (task.status === "running") await this.startTaskRun(record, task);
      } else if (TERMINAL_RUN_STATUSES.has(run.status)) {
        await this.applyRunOutcome(record.id, run);
        changed = true;
      }
    }
    return changed ? ((await this.options.store.sessions.get(record.id)) ?? record) : record;
  }

  /** Cancels one task: a queued one at once, a running one through its run. 409 once it has ended. */
  async cancel(sessionId: string, taskId: string): Promise<SessionRecord> {
    const record = await this.options.sessions.get(sessionId);
    const task = record.tasks.find((item) => item.taskId === taskId);
    if (!task) {
      throw new ApiError("not_found", `Session "${sessionId}" has no task "${taskId}".`, { id: taskId });
    }
    if (TERMINAL_TASK_STATUSES.has(task.status)) {
      throw sessionConflict(
        "task_ended",
        record,
        `Task "${taskId}" of session "${sessionId}" has already ended (${task.status}).`,
      );
    }
    await this.cancelTask(record, task);
    return this.options.sessions.get(sessionId);
  }

  /** Cancels every task still going (the session is being closed); their runs are kept. */
  async cancelAll(record: SessionRecord): Promise<void> {
    for (const task of record.tasks) {
      if (TERMINAL_TASK_STATUSES.has(task.status)) continue;
      await this.cancelTask(record, task).catch((error: unknown) =>
        this.options.logger.warn("session task not cancelled", { taskId: task.taskId, error: String(error) }),
      );
    }
  }

  private async cancelTask(record: SessionRecord, task: SessionTask): Promise<void> {
    const run = await this.options.store.getRun(task.runId);
    if (!run) {
      // Queued for a slot: it never started.
      await this.applyOutcome(record.id, task.runId, {
        status: "cancelled",
        error: { code: "cancelled", message: "The task was cancelled before it started." },
      });
      return;
    }
    if (!TERMINAL_RUN_STATUSES.has(run.status)) {
      await this.options.runs.cancelRun(run.id).catch((error: unknown) => {
        // It ended meanwhile: its end is applied below.
        if (!(error instanceof ApiError && error.code === "invalid_state")) throw error;
      });
    }
    const ended = await this.options.store.getRun(run.id);
    if (ended && TERMINAL_RUN_STATUSES.has(ended.status)) await this.applyRunOutcome(record.id, ended);
  }

  private async onRunEnded(runId: string): Promise<void> {
    const run = await this.options.store.getRun(runId);
    if (!run || run.kind !== "task" || run.sessionId === undefined) return;
    await this.applyRunOutcome(run.sessionId, run);
    this.toolContexts.delete(runId);
  }

  /** A task's run ended: its outcome goes into the session once (any instance may hear it first). */
  private async applyRunOutcome(sessionId: string, run: RunRecord): Promise<void> {
    await this.applyOutcome(sessionId, run.id, getRunOutcome(run));
  }

  private async applyOutcome(
    sessionId: string,
    runId: string,
    outcome: Omit<SessionTaskOutcome, "taskId">,
  ): Promise<void> {
    const current = await this.options.sessions.get(sessionId);
    const limits = getLimits(await this.getSpec(current.agentId, current.agentVersion));
    const change = await this.options.sessions.update(sessionId, (record) => {
      const task = record.tasks.find((item) => item.runId === runId);
      if (!task) return { events: [], result: [] as SessionTask[] };
      const applied = applySessionTaskOutcome(record, { taskId: task.taskId, ...outcome }, limits);
      return { events: applied.events, result: applied.start };
    });
    for (const next of change.result) await this.startTaskRun(change.record, next);
  }

  /**
   * Queues a task's run through the run service. The run's id was decided with the spawn, so two
   * instances starting it give one run (the second create is a conflict); a run the service refuses ends
   * the task as failed.
   */
  private async startTaskRun(record: SessionRecord, task: SessionTask): Promise<void> {
    const parent = await this.options.store.getRun(task.parentRunId);
    const job = task.job;
    if (!job) return;
    const toolContext = this.toolContexts.get(task.parentRunId);
    try {
      await this.options.runs.startRun(
        {
          agentId: parent?.agentId ?? record.agentId,
          agentVersion: parent?.agentVersion ?? record.agentVersion,
          query:
            job.mode === "subagent" ? (job.query ?? task.name) : `Background task: run ${job.tool ?? ""}`,
          ...(toolContext ? { toolContext: { ...toolContext } } : {}),
        },
        {
          runId: task.runId,
          origin: {
            sessionId: record.id,
            ...(task.turn === undefined ? {} : { turn: task.turn }),
            kind: "task",
            parentRunId: task.parentRunId,
            ...(parent?.channel === undefined ? {} : { channel: parent.channel }),
          },
          task: { taskId: task.taskId, ...job },
        },
      );
    } catch (error) {
      if (isStoreError(error) && error.code === "conflict") return;
      const failure =
        error instanceof ApiError
          ? { code: error.code, message: error.message }
          : { code: "task_failed", message: String(error) };
      this.options.logger.warn("session task not started", { taskId: task.taskId, ...failure });
      await this.applyOutcome(record.id, task.runId, { status: "failed", error: failure });
    }
  }

  /** `retain_turn`: reads the session until the task (or group) ended, the time limit, or a cancel. */
  private async wait(
    sessionId: string,
    request: { taskId: string; groupId?: string; timeoutMs: number; signal: AbortSignal },
  ): Promise<HostedWaitResult> {
    const deadline = Date.now() + request.timeoutMs;
    const target = { taskId: request.taskId, ...(request.groupId ? { groupId: request.groupId } : {}) };
    for (;;) {
      const record = await this.reconcile(await this.options.sessions.get(sessionId));
      const done = getSessionWaitResult(record, target);
      if (done) return done;
      const stopped = request.signal.aborted ? "cancelled" : Date.now() >= deadline ? "timeout" : undefined;
      if (stopped) {
        return (
          getSessionWaitResult(record, target, stopped) ?? {
            status: stopped,
            name: "",
            strategy: "APPEND",
            tasks: [],
          }
        );
      }
      await this.nextChange(
        sessionId,
        Math.min(this.options.waitPollMs ?? 500, deadline - Date.now()),
        request.signal,
      );
    }
  }

  /** Resolves on this instance's next change to the session, after `ms` (other instances), or on abort. */
  private nextChange(sessionId: string, ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        stop();
        signal.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      const stop = this.options.sessions.onChange((notice) => {
        if (notice.sessionId === sessionId) done();
      });
      signal.addEventListener("abort", done, { once: true });
    });
  }

  private async getSpec(agentId: string, version: number): Promise<AgentSpec> {
    const key = `${agentId}@${version}`;
    const known = this.specs.get(key);
    if (known) return known;
    const agent = await this.options.store.getAgentVersion(agentId, version);
    if (!agent) throw notFound("Agent", `${agentId}@${version}`);
    if (this.specs.size > 1_000) this.specs.clear();
    this.specs.set(key, agent.spec);
    return agent.spec;
  }
}

function getLimits(spec: AgentSpec): SessionTaskLimits {
  const { tasks } = spec.planner;
  return {
    maxConcurrent: tasks.maxConcurrent,
    maxPerSession: tasks.maxPerRun,
    defaultMergeStrategy: tasks.defaultMergeStrategy,
  };
}

/** How a task's run ended, as its session's `task_update` says it. */
function getRunOutcome(run: RunRecord): Omit<SessionTaskOutcome, "taskId"> {
  const usage = run.usage;
  switch (run.status) {
    case "finished": {
      const result = run.result?.kind === "finish" ? run.result.payload.artifacts["task_result"] : undefined;
      return {
        status: "completed",
        ...(result === undefined
          ? {}
          : { result: createPreview(result, { maxChars: RESULT_PREVIEW_CHARS }) }),
        usage,
      };
    }
    case "cancelled":
      return { status: "cancelled", error: { code: "cancelled", message: "The task was cancelled." }, usage };
    case "interrupted":
      return {
        status: "interrupted",
        error: {
          code: "interrupted",
          message:
            run.error?.message ?? "The server stopped while this task was running; it was not finished.",
        },
        usage,
      };
    default: {
      const error = run.error ?? { code: "task_failed", message: `The task's run ended ${run.status}.` };
      return {
        status: error.code === "task_timeout" ? "timed_out" : "failed",
        error: { code: error.code, message: error.message },
        usage,
      };
    }
  }
}
