import type { RunEvent, RunStatus, Usage } from "@waddle/protocol";
import type { Logger } from "../logger.js";
import type { SecretRedactor } from "../tools/secret-redactor.js";
import {
  EMPTY_USAGE,
  type AppendEventOptions,
  type RunPatch,
  type TaskRecord,
  type WaddleStore,
} from "../store/waddle-store.js";
import type { RunEventHub } from "./run-event-hub.js";

/** An event the server writes itself (e.g. `run_failed`); the recorder gives it its seq and step. */
export type ServerEvent = Pick<RunEvent, "type" | "data">;

/**
 * Records one run's events: redacts secrets, numbers them after the stored `seq` (so the stored stream has
 * no gap whatever the emitter says), writes each with the run and task changes it implies in one
 * transaction, and only then publishes it. Writes are chained, so events are stored and published in order.
 */
export class RunRecorder {
  private tail: Promise<void> = Promise.resolve();
  private lastSeq: number;
  private lastStep = 0;
  private usage: Usage;
  private status: RunStatus;
  private sealed = false;
  private readonly taskNames = new Map<
    string,
    { name: string; mode?: "subagent" | "tool"; groupId?: string }
  >();

  constructor(
    private readonly options: {
      runId: string;
      lastSeq: number;
      usage?: Usage;
      status: RunStatus;
      store: WaddleStore;
      hub: RunEventHub;
      redactor: SecretRedactor;
      logger: Logger;
    },
  ) {
    this.lastSeq = options.lastSeq;
    this.usage = { ...(options.usage ?? EMPTY_USAGE) };
    this.status = options.status;
  }

  get currentStatus(): RunStatus {
    return this.status;
  }

  get isSealed(): boolean {
    return this.sealed;
  }

  /** The planner's event sink: synchronous, writes in the background in order. */
  readonly sink = (event: RunEvent): void => {
    this.enqueue(() => this.write(event));
  };

  /** Appends an event of the server's own (`run_failed`, `run_interrupted`, …) after every queued one. */
  append(event: ServerEvent, patch: RunPatch = {}): Promise<void> {
    return this.enqueue(() =>
      this.write(
        { ...event, runId: this.options.runId, seq: 0, ts: Date.now(), step: this.lastStep } as RunEvent,
        patch,
      ),
    );
  }

  /** Changes the run's row (status, timing) after every queued event, and publishes a status change. */
  patch(patch: RunPatch): Promise<void> {
    return this.enqueue(async () => {
      if (this.sealed) return;
      await this.options.store.updateRun(this.options.runId, patch);
      if (patch.status) this.setStatus(patch.status);
    });
  }

  /** After this, events from the planner are dropped (the run was interrupted or cancelled by the server). */
  seal(): void {
    this.sealed = true;
  }

  /** Resolves once everything queued so far is stored and published. */
  flush(): Promise<void> {
    return this.enqueue(async () => undefined);
  }

  private enqueue(task: () => Promise<void>): Promise<void> {
    const next = this.tail.then(task).catch((error: unknown) => {
      this.options.logger.error("recording a run event failed", {
        runId: this.options.runId,
        error: String(error),
      });
    });
    this.tail = next;
    return next;
  }

  private async write(raw: RunEvent, extraPatch: RunPatch = {}): Promise<void> {
    if (this.sealed) return;
    const seq = this.lastSeq + 1;
    if (raw.seq !== 0 && raw.seq !== seq) {
      this.options.logger.warn("event renumbered", {
        runId: this.options.runId,
        emitted: raw.seq,
        stored: seq,
      });
    }
    const event = this.options.redactor.redact({ ...raw, runId: this.options.runId, seq }) as RunEvent;
    const derived = this.derive(event);
    const run: RunPatch = { ...derived.run, ...extraPatch };
    const options: AppendEventOptions = {
      ...(Object.keys(run).length > 0 ? { run } : {}),
      ...(derived.task ? { task: derived.task } : {}),
    };
    await this.options.store.appendEvent(event, options);
    this.lastSeq = seq;
    this.lastStep = Math.max(this.lastStep, event.step);
    if (
      run.status === "finished" ||
      run.status === "cancelled" ||
      run.status === "failed" ||
      run.status === "interrupted"
    )
      this.sealed = true;
    this.options.hub.publishEvent(event);
    if (run.status) this.setStatus(run.status);
  }

  private setStatus(status: RunStatus): void {
    if (status === this.status) return;
    this.status = status;
    this.options.hub.publishStatus({ runId: this.options.runId, status, lastSeq: this.lastSeq });
  }

  /** The run and task changes an event implies: terminal states, pauses, usage totals, background tasks. */
  private derive(event: RunEvent): { run: RunPatch; task?: TaskRecord } {
    const now = new Date().toISOString();
    switch (event.type) {
      case "run_started":
        return { run: this.status === "running" ? {} : { status: "running" } };
      case "resumed":
        return { run: { status: "running", pause: null } };
      case "llm_call": {
        const data = event.data;
        this.usage = {
          promptTokens: this.usage.promptTokens + data.promptTokens,
          completionTokens: this.usage.completionTokens + data.completionTokens,
          reasoningTokens: this.usage.reasoningTokens + data.reasoningTokens,
          costUsd: this.usage.costUsd + data.costUsd,
          llmCalls: this.usage.llmCalls + 1,
        };
        return { run: { usage: this.usage } };
      }
      case "pause":
        return {
          run: {
            status: "paused",
            pause: {
              reason: event.data.reason,
              payload: event.data.payload,
              resumeToken: event.data.resumeToken,
            },
            result: {
              kind: "pause",
              reason: event.data.reason,
              payload: event.data.payload,
              resumeToken: event.data.resumeToken,
            },
          },
        };
      case "run_finished":
        return {
          run: {
            status: event.data.reason === "cancelled" ? "cancelled" : "finished",
            result: {
              kind: "finish",
              reason: event.data.reason,
              payload: event.data.payload,
              metadata: event.data.metadata,
            },
            usage: event.data.metadata.usage,
            pause: null,
            finishedAt: now,
          },
        };
      case "run_failed":
        return {
          run: {
            status: "failed",
            error: { code: event.data.error.code, message: event.data.error.message },
            pause: null,
            finishedAt: now,
          },
        };
      case "run_interrupted":
        return { run: { status: "interrupted", finishedAt: now } };
      case "task_spawned": {
        const { taskId, name, mode, groupId } = event.data;
        this.taskNames.set(taskId, { name, mode, ...(groupId ? { groupId } : {}) });
        return {
          run: {},
          task: {
            runId: event.runId,
            taskId,
            name,
            mode,
            status: "queued",
            ...(groupId ? { groupId } : {}),
            updatedAt: now,
          },
        };
      }
      case "task_update": {
        const known = this.taskNames.get(event.data.taskId);
        return {
          run: {},
          task: {
            runId: event.runId,
            taskId: event.data.taskId,
            name: known?.name ?? event.data.taskId,
            status: event.data.status,
            ...(known?.mode ? { mode: known.mode } : {}),
            ...(event.data.groupId || known?.groupId
              ? { groupId: event.data.groupId ?? known?.groupId }
              : {}),
            ...(event.data.result === undefined ? {} : { result: event.data.result }),
            ...(event.data.error
              ? { error: { code: event.data.error.code, message: event.data.error.message } }
              : {}),
            updatedAt: now,
          },
        };
      }
      default:
        return { run: {} };
    }
  }
}
