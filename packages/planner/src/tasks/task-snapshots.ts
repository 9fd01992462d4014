import { createPreview } from "../util/create-preview.js";
import type { MergeStrategy } from "@waddle/protocol";
import type { GroupRecord } from "./task-groups.js";
import type { TaskErrorInfo, TaskResultEntry } from "../run/pending-merge.js";
import type {
  TaskGroupSnapshot,
  TaskJob,
  TaskManagerOptions,
  TaskSnapshot,
  TaskTimers,
} from "./task-types.js";

/** A task inside the manager: its snapshot fields plus what only the manager holds. */
export interface TaskRecord extends TaskSnapshot {
  job: TaskJob;
  controller?: AbortController;
  timer?: unknown;
}

export type TaskSettings = Required<Omit<TaskManagerOptions, "onEvent" | "createId">>;

const defaultTimers: TaskTimers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** The manager's settings, defaults as in the protocol's `TasksOptions` (docs/task-groups.md). */
export function resolveTaskSettings(options: TaskManagerOptions): TaskSettings {
  return {
    execute: options.execute,
    now: options.now ?? Date.now,
    timers: options.timers ?? defaultTimers,
    maxConcurrent: options.maxConcurrent ?? 4,
    maxPerRun: options.maxPerRun ?? 16,
    timeoutMs: options.timeoutMs ?? 300_000,
    defaultMergeStrategy: options.defaultMergeStrategy ?? "APPEND",
    preview: options.preview ?? ((value) => createPreview(value, { maxChars: 2_000 })),
  };
}

/** A copy of the task without the manager's internals. */
export function toTaskSnapshot(task: TaskRecord): TaskSnapshot {
  const { job: _job, controller: _controller, timer: _timer, ...snapshot } = task;
  return structuredClone(snapshot);
}

/** The task's outcome: full result for merges, or a bounded preview (`preview` given) for events. */
export function toTaskEntry(task: TaskRecord, preview?: (value: unknown) => unknown): TaskResultEntry {
  const entry: TaskResultEntry = { taskId: task.taskId, name: task.name, status: task.status };
  if (task.result !== undefined) {
    entry.result = preview === undefined ? structuredClone(task.result) : preview(task.result);
  }
  if (task.error !== undefined) entry.error = { ...task.error };
  return entry;
}

/** What an `execute` rejection says: its `code` when it has one, else `task_failed`. */
export function toTaskErrorInfo(error: unknown): TaskErrorInfo {
  const code = (error as { code?: unknown } | null)?.code;
  return {
    code: typeof code === "string" ? code : "task_failed",
    message: error instanceof Error ? error.message : String(error),
  };
}

/** A copy of a group with its tasks, for polling and waiters. */
export function toGroupSnapshot(input: {
  group: GroupRecord;
  tasks: readonly TaskRecord[];
  mergeStrategy: MergeStrategy;
}): TaskGroupSnapshot {
  const { groupId, name, turn, sealed, report, retainTurn, completed } = input.group;
  const tasks = input.tasks.map(toTaskSnapshot);
  const { mergeStrategy } = input;
  return { groupId, name, turn, sealed, report, mergeStrategy, retainTurn, complete: completed, tasks };
}
