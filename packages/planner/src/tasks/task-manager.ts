import { ContextCapsule, type RunEventData } from "@waddle/protocol";
import { TaskError } from "../errors/task-error.js";
import {
  applyGroupArgs,
  findOrCreateGroup,
  type GroupRecord,
  resolveGroupMergeStrategy,
} from "./task-groups.js";
import { MergeQueue } from "./task-merges.js";
import { settleTaskGroup } from "./task-settle.js";
import {
  assertTaskLimit,
  createTaskJob,
  createTaskRecord,
  getTaskSpawnedEventData,
  parseTaskAction,
} from "./task-spawn.js";
import type { PendingMerge, TaskErrorInfo, TaskResultEntry } from "../run/pending-merge.js";
import type {
  SpawnedTask,
  TaskAction,
  TaskGroupSnapshot,
  TaskManagerEvent,
  TaskManagerOptions,
  TaskSnapshot,
  WaitResult,
} from "./task-types.js";
import {
  resolveTaskSettings,
  type TaskRecord,
  type TaskSettings,
  toGroupSnapshot,
  toTaskEntry,
  toTaskErrorInfo,
  toTaskSnapshot,
} from "./task-snapshots.js";
import { createWaiters } from "./task-waiters.js";

type Terminal = "completed" | "failed" | "cancelled" | "timed_out";

const TERMINAL: ReadonlySet<string> = new Set<Terminal>(["completed", "failed", "cancelled", "timed_out"]);
/**
 * Background tasks of one run (docs/background-tasks.md, docs/task-groups.md): spawns `task.subagent` / `task.tool` jobs through `execute`,
 * queues past `maxConcurrent`, times them out, groups and reports them, and holds their results as
 * pending merges for the planner to fold into the trajectory. In memory; clock, ids and timers injected.
 */
export class TaskManager {
  private readonly tasks = new Map<string, TaskRecord>();
  private readonly groups = new Map<string, GroupRecord>();
  private readonly queue: TaskRecord[] = [];
  private readonly counters = { task: 0, group: 0, merge: 0 };
  private readonly settings: TaskSettings;
  private readonly merges: MergeQueue;
  private readonly waiters;
  private turn = 1;
  private running = 0;
  private closed = false;

  constructor(private readonly options: TaskManagerOptions) {
    this.settings = resolveTaskSettings(options);
    this.merges = new MergeQueue({ now: this.settings.now, createId: () => this.createId("merge") });
    this.waiters = createWaiters(this.settings.timers);
  }

  /** Spawns the task of a `task.subagent` / `task.tool` action; throws `TaskError` when it may not. */
  spawn(action: TaskAction): SpawnedTask {
    if (this.closed)
      throw new TaskError("tasks_cancelled", "The run was cancelled: no more tasks can start.");
    const args = parseTaskAction(action);
    assertTaskLimit(this.tasks.size, this.settings.maxPerRun);
    const group = findOrCreateGroup({
      groups: this.groups,
      args,
      turn: this.turn,
      createGroupId: () => this.createId("group"),
    });
    const job = createTaskJob(args, this.createId("task"));
    const { now, defaultMergeStrategy } = this.settings;
    const task = createTaskRecord({ args, job, group, spawnedAt: now(), defaultMergeStrategy });
    this.tasks.set(task.taskId, task);
    if (group !== undefined) {
      group.taskIds.push(task.taskId);
      applyGroupArgs(group, args);
    }
    this.emit({ type: "task_spawned", data: getTaskSpawnedEventData(task, group) });
    if (this.running < this.settings.maxConcurrent) this.start(task);
    else {
      this.queue.push(task);
      this.emitUpdate(task);
    }
    if (group?.sealed === true) this.settleGroup(group);
    return {
      taskId: task.taskId,
      status: task.status === "queued" ? "queued" : "running",
      ...(group !== undefined ? { groupId: group.groupId } : {}),
      retainTurn: args.retain_turn === true || group?.retainTurn === true,
    };
  }

  /** Ends the foreground turn: seals every open group (the auto-seal when the foreground yields). */
  sealOpenGroups(): string[] {
    const sealed: string[] = [];
    for (const group of this.groups.values()) {
      if (group.sealed) continue;
      group.sealed = true;
      sealed.push(group.groupId);
      this.settleGroup(group);
    }
    this.turn += 1;
    return sealed;
  }

  /** `retain_turn`: waits until every task of the group is terminal, or the timeout. Seals the group. */
  waitForGroup(groupId: string, options: { timeoutMs: number }): Promise<WaitResult<TaskGroupSnapshot>> {
    const group = this.groups.get(groupId);
    if (group === undefined) throw new TaskError("unknown_task_group", `No task group has id "${groupId}".`);
    if (!group.sealed) {
      group.sealed = true;
      this.settleGroup(group);
    }
    const snapshot = () => this.toGroupSnapshot(group);
    if (group.completed) return Promise.resolve({ status: "completed", snapshot: snapshot() });
    if (this.closed) return Promise.resolve({ status: "cancelled", snapshot: snapshot() });
    return this.waiters.add({ key: groupId, timeoutMs: options.timeoutMs, snapshot });
  }

  /** Waits until one task is terminal, or the timeout. */
  waitForTask(taskId: string, options: { timeoutMs: number }): Promise<WaitResult<TaskSnapshot>> {
    const task = this.requireTask(taskId);
    const snapshot = () => toTaskSnapshot(task);
    if (TERMINAL.has(task.status)) return Promise.resolve({ status: "completed", snapshot: snapshot() });
    if (this.closed) return Promise.resolve({ status: "cancelled", snapshot: snapshot() });
    return this.waiters.add({ key: taskId, timeoutMs: options.timeoutMs, snapshot });
  }

  /** Cancels one queued or running task. */
  cancel(taskId: string): void {
    this.finish(this.requireTask(taskId), "cancelled", {
      error: { code: "cancelled", message: "The task was cancelled." },
    });
  }

  /** Cancels every task of a cancelled run and refuses later spawns; returns how many were cancelled. */
  cancelAll(): number {
    this.closed = true;
    let cancelled = 0;
    for (const task of this.tasks.values()) {
      if (TERMINAL.has(task.status)) continue;
      cancelled += 1;
      this.finish(task, "cancelled", { error: { code: "cancelled", message: "The run was cancelled." } });
    }
    this.waiters.cancelAll();
    return cancelled;
  }

  /** Results waiting to be folded into the trajectory, oldest first (copies). */
  getPendingMerges(): PendingMerge[] {
    return this.merges.list();
  }

  /**
   * Takes a pending merge: `approve` (the default) folds it in, `reject` discards it; HUMAN_GATED merges
   * need an explicit decision. Returns the merge and whether to apply it.
   */
  applyMerge(mergeId: string, decision?: "approve" | "reject"): { merge: PendingMerge; applied: boolean } {
    return this.merges.apply(mergeId, decision);
  }

  getTask(taskId: string): TaskSnapshot | undefined {
    const task = this.tasks.get(taskId);
    return task === undefined ? undefined : toTaskSnapshot(task);
  }

  listTasks(): TaskSnapshot[] {
    return [...this.tasks.values()].map((task) => toTaskSnapshot(task));
  }

  /** A group's status and results (what `group_report: "none"` callers poll). */
  getGroup(groupId: string): TaskGroupSnapshot | undefined {
    const group = this.groups.get(groupId);
    return group === undefined ? undefined : this.toGroupSnapshot(group);
  }

  listGroups(): TaskGroupSnapshot[] {
    return [...this.groups.values()].map((group) => this.toGroupSnapshot(group));
  }

  private start(task: TaskRecord): void {
    const controller = new AbortController();
    task.controller = controller;
    task.status = "running";
    task.startedAt = this.settings.now();
    this.running += 1;
    task.timer = this.settings.timers.setTimeout(() => {
      const message = `The task ran longer than ${this.settings.timeoutMs} ms and was stopped.`;
      this.finish(task, "timed_out", { error: { code: "task_timeout", message } });
    }, this.settings.timeoutMs);
    this.emitUpdate(task);
    let pending: Promise<unknown>;
    try {
      pending = this.settings.execute(structuredClone(task.job), controller.signal);
    } catch (error) {
      pending = Promise.reject(error);
    }
    pending.then(
      (result) => this.complete(task, result),
      (error: unknown) => this.finish(task, "failed", { error: toTaskErrorInfo(error) }),
    );
  }

  /** A subagent must return a ContextCapsule, not its transcript. */
  private complete(task: TaskRecord, result: unknown): void {
    if (task.mode !== "subagent") return this.finish(task, "completed", { result });
    const capsule = ContextCapsule.safeParse(result);
    if (capsule.success) return this.finish(task, "completed", { result: capsule.data });
    const message = `The subagent returned no valid ContextCapsule (${capsule.error.issues[0]?.message}).`;
    this.finish(task, "failed", { error: { code: "invalid_task_result", message } });
  }

  private finish(
    task: TaskRecord,
    status: Terminal,
    outcome: { result?: unknown; error?: TaskErrorInfo },
  ): void {
    if (TERMINAL.has(task.status)) return;
    const queued = this.queue.indexOf(task);
    if (queued !== -1) this.queue.splice(queued, 1);
    if (task.status === "running") this.running -= 1;
    if (task.timer !== undefined) this.settings.timers.clearTimeout(task.timer);
    if (status !== "completed")
      task.controller?.abort(new TaskError("tasks_cancelled", `The task ${status}.`));
    task.status = status;
    task.finishedAt = this.settings.now();
    if (outcome.result !== undefined) task.result = outcome.result;
    if (outcome.error !== undefined) task.error = outcome.error;
    this.emitUpdate(task);
    const group = task.groupId === undefined ? undefined : this.groups.get(task.groupId);
    if (group !== undefined) this.settleGroup(group, task);
    else if (status !== "cancelled") {
      this.merges.add({
        kind: "task",
        strategy: task.mergeStrategy,
        name: task.name,
        tasks: [this.toEntry(task)],
      });
    }
    this.waiters.resolve(task.taskId, this.closed ? "cancelled" : "completed");
    while (!this.closed && this.running < this.settings.maxConcurrent && this.queue.length > 0) {
      this.start(this.queue.shift()!);
    }
  }

  private settleGroup(group: GroupRecord, finished?: TaskRecord): void {
    const tasks = group.taskIds.map((taskId) => this.tasks.get(taskId)!);
    settleTaskGroup({
      group,
      tasks,
      strategy: this.getGroupStrategy(group, tasks),
      finished,
      closed: this.closed,
      isTerminal: (task) => TERMINAL.has(task.status),
      toEntry: (task, preview) => ({ result: null, ...this.toEntry(task, preview) }),
      report: (data) => this.emit({ type: "task_group_report", data }),
      addMerge: (merge) =>
        this.merges.add({
          ...merge,
          groupId: group.groupId,
          tasks: merge.tasks.map((task) => this.toEntry(task)),
        }),
    });
    if (group.completed) this.waiters.resolve(group.groupId, this.closed ? "cancelled" : "completed");
  }

  private getGroupStrategy(group: GroupRecord, tasks: readonly TaskRecord[]) {
    const strategies = tasks.map((task) => task.mergeStrategy);
    return resolveGroupMergeStrategy(group, strategies, this.settings.defaultMergeStrategy);
  }

  private emitUpdate(task: TaskRecord): void {
    const entry = this.toEntry(task, true);
    const data: RunEventData<"task_update"> = { taskId: task.taskId, status: task.status };
    if (entry.result !== undefined) data.result = entry.result;
    if (entry.error !== undefined) data.error = entry.error;
    if (task.groupId !== undefined) data.groupId = task.groupId;
    this.emit({ type: "task_update", data });
  }

  private emit(event: TaskManagerEvent): void {
    this.options.onEvent?.(event);
  }

  private createId(kind: "task" | "group" | "merge"): string {
    if (this.options.createId !== undefined) return this.options.createId(kind);
    this.counters[kind] += 1;
    return `${kind}_${this.counters[kind]}`;
  }

  private requireTask(taskId: string): TaskRecord {
    const task = this.tasks.get(taskId);
    if (task === undefined) throw new TaskError("unknown_task", `No task has id "${taskId}" in this run.`);
    return task;
  }

  private toEntry(task: TaskRecord, preview = false): TaskResultEntry {
    return toTaskEntry(task, preview ? this.settings.preview : undefined);
  }

  private toGroupSnapshot(group: GroupRecord): TaskGroupSnapshot {
    const tasks = group.taskIds.map((taskId) => this.tasks.get(taskId)!);
    return toGroupSnapshot({ group, tasks, mergeStrategy: this.getGroupStrategy(group, tasks) });
  }
}
