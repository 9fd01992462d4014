import {
  addLlmCallUsage,
  getFinishedStatus,
  type PendingPause,
  type RunDecisions,
  type RunEvent,
  type RunStatus,
  type Usage,
} from "@waddle/protocol";
import type { RunPatch, TaskRecord } from "../store/waddle-store.js";

/**
 * What a run's events imply for its stored row and its background tasks: terminal states, pauses, usage
 * totals (summed over its `llm_call` events), the decisions made at its pauses (counted over its own
 * `resumed` events: a fork's copied ones were made on its parent), task records. One per recorder, fed
 * every event in order.
 */
export class RunEventEffects {
  private usage: Usage;
  /** The pause the last `pause` event recorded. */
  lastPause: PendingPause | undefined;
  private decisions: RunDecisions | undefined;
  private readonly taskNames = new Map<
    string,
    { name: string; mode?: "subagent" | "tool"; groupId?: string }
  >();

  constructor(usage: Usage, decisions?: RunDecisions) {
    this.usage = { ...usage };
    this.decisions = decisions === undefined ? undefined : { ...decisions };
  }

  /**
   * The run and task changes `event` implies, given the run's `status` before it. Most events (stream
   * chunks, tool steps) imply none: no object and no timestamp is made for them.
   */
  derive(event: RunEvent, status: RunStatus): { run: RunPatch; task?: TaskRecord } | undefined {
    switch (event.type) {
      case "run_started":
        return { run: status === "running" ? {} : { status: "running" } };
      case "resumed": {
        if (event.replayed === true) return { run: { status: "running", pause: null } };
        const counted = this.decisions ?? { approve: 0, edit: 0, reject: 0 };
        const { decision } = event.data;
        this.decisions = { ...counted, [decision]: counted[decision] + 1 };
        return { run: { status: "running", pause: null, decisions: this.decisions } };
      }
      case "llm_call":
        this.usage = addLlmCallUsage(this.usage, event.data);
        return { run: { usage: this.usage } };
      case "pause": {
        const { dueAt, onTimeout } = event.data;
        this.lastPause = {
          reason: event.data.reason,
          payload: event.data.payload,
          resumeToken: event.data.resumeToken,
          // When it paused and, with a time limit, when the server decides it (the inbox's due time).
          pausedAt: new Date(event.ts).toISOString(),
          ...(dueAt === undefined ? {} : { dueAt }),
          ...(onTimeout === undefined ? {} : { onTimeout }),
        };
        return {
          run: {
            status: "paused",
            pause: this.lastPause,
            result: {
              kind: "pause",
              reason: event.data.reason,
              payload: event.data.payload,
              resumeToken: event.data.resumeToken,
            },
          },
        };
      }
      case "run_finished":
        return {
          run: {
            status: getFinishedStatus(event.data.reason),
            result: {
              kind: "finish",
              reason: event.data.reason,
              payload: event.data.payload,
              metadata: event.data.metadata,
            },
            usage: event.data.metadata.usage,
            pause: null,
            finishedAt: new Date().toISOString(),
          },
        };
      case "run_failed":
        return {
          run: {
            status: "failed",
            error: { code: event.data.error.code, message: event.data.error.message },
            pause: null,
            finishedAt: new Date().toISOString(),
          },
        };
      case "run_interrupted":
        return { run: { status: "interrupted", finishedAt: new Date().toISOString() } };
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
            updatedAt: new Date().toISOString(),
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
            updatedAt: new Date().toISOString(),
          },
        };
      }
      default:
        return undefined;
    }
  }
}
