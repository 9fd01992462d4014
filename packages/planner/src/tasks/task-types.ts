import type { GroupReport, MergeStrategy, RunEventData, TaskStatus } from "@waddle/protocol";
import type { TaskErrorInfo } from "../run/pending-merge.js";
import type { SpawnedTask, TaskAction } from "../run/task-host.js";

export type { SpawnedTask, TaskAction } from "../run/task-host.js";

/** What `execute` receives: one background job. */
export interface TaskJob {
  taskId: string;
  name: string;
  /** `subagent`: a forked planner runs `query` and returns a ContextCapsule. `tool`: one tool call. */
  mode: "subagent" | "tool";
  query?: string;
  tool?: string;
  toolArgs?: Record<string, unknown>;
}

/** Runs a job; must honour `signal` (cancellation and the per-task timeout abort it). */
export type TaskExecute = (task: TaskJob, signal: AbortSignal) => Promise<unknown>;

/** Timer functions, injectable so that tests can fire timeouts by hand. */
export interface TaskTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export type TaskManagerEvent =
  | { type: "task_spawned"; data: RunEventData<"task_spawned"> }
  | { type: "task_update"; data: RunEventData<"task_update"> }
  | { type: "task_group_report"; data: RunEventData<"task_group_report"> };

export interface TaskManagerOptions {
  execute: TaskExecute;
  onEvent?: (event: TaskManagerEvent) => void;
  /** Clock for timestamps (ms). Default `Date.now`. */
  now?: () => number;
  /** Id source. Default: `task_1`, `group_1`, `merge_1`, … per manager. */
  createId?: (kind: "task" | "group" | "merge") => string;
  timers?: TaskTimers;
  /** Running at once; more are queued. Default 4. */
  maxConcurrent?: number;
  /** Spawns per run; more throw `task_limit_exceeded`. Default 16. */
  maxPerRun?: number;
  /** Per-task time limit in ms. Default 300 000. */
  timeoutMs?: number;
  /** For tasks that name no `merge_strategy`. Default `APPEND`. */
  defaultMergeStrategy?: MergeStrategy;
  /** Bounded preview of results for events. Default: `createPreview` at 2 000 characters. */
  preview?: (value: unknown) => unknown;
}

/** A task as the manager reports it. */
export interface TaskSnapshot {
  taskId: string;
  name: string;
  mode: "subagent" | "tool";
  status: TaskStatus;
  mergeStrategy: MergeStrategy;
  groupId?: string;
  query?: string;
  tool?: string;
  result?: unknown;
  error?: TaskErrorInfo;
  spawnedAt: number;
  startedAt?: number;
  finishedAt?: number;
}

/** A task group as the manager reports it (what `group_report: "none"` callers poll). */
export interface TaskGroupSnapshot {
  groupId: string;
  name: string;
  /** The foreground turn that created it; `sealOpenGroups()` ends a turn. */
  turn: number;
  sealed: boolean;
  report: GroupReport;
  /** The combined result's strategy (`group_merge_strategy`, else inherited from the tasks). */
  mergeStrategy: MergeStrategy;
  retainTurn: boolean;
  /** Sealed and every task terminal. */
  complete: boolean;
  tasks: TaskSnapshot[];
}

export interface WaitResult<T> {
  status: "completed" | "timeout" | "cancelled";
  snapshot: T;
}

/** A task the run stopped because it finished or paused first. */
export interface StoppedTask {
  taskId: string;
  name: string;
}

/**
 * A run's background tasks as its steps use them (`RunTasks` is the one implementation): spawn, wait,
 * read a group, fold arrived results into the trajectory, and stop them when the run yields.
 */
export interface BackgroundTasks {
  readonly isOpen: boolean;
  /** True when a `TaskHost` runs the tasks: they go on after the turn answers. */
  readonly outlivesTurn?: boolean;
  /** Spawns the task of a `task.subagent` / `task.tool` action (throws `TaskError` when it may not). */
  spawn(action: TaskAction): SpawnedTask | Promise<SpawnedTask>;
  /** `retain_turn`: the foreground waits for the task or its (now sealed) group, within the deadline. */
  waitFor(spawned: SpawnedTask): Promise<void>;
  getGroup(groupId: string): TaskGroupSnapshot | undefined;
  /** Takes the results that arrived (see `RunTasks.collect`). */
  collect(): void;
  /**
   * The run yields: unfinished tasks are cancelled (or, with a `TaskHost`, go on while the turn's groups
   * are sealed); returns the tasks it stopped.
   */
  close(options: { keepResults: boolean; reason?: "finished" | "failed" | "paused" }): StoppedTask[];
}
