import {
  TERMINAL_TASK_STATUSES,
  type MergeStrategy,
  type NewSessionEvent,
  type SessionRecord,
  type SessionTask,
  type SessionTaskStatus,
  type Usage,
} from "@waddle/protocol";
import { TaskError } from "../errors/task-error.js";
import { applyGroupArgs, findOrCreateGroup } from "../tasks/task-groups.js";
import type { HostedWaitResult } from "../run/task-host.js";
import { parseTaskAction } from "../tasks/task-spawn.js";
import type { TaskAction } from "../tasks/task-types.js";
import type { MergedResult } from "./session-context.js";
import {
  getGroupCompletionEvents,
  getGroupStrategy,
  toGroupRecords,
  toMergeTask,
} from "./session-task-groups.js";

/**
 * A session's background tasks across turns (docs/background-tasks.md, "Tasks with a host"), as pure
 * decisions over the session's record: each function reads the record (the fold of the session's log,
 * `applySessionEvent`) and returns the events to append — so a host makes every decision as one
 * conditional write, and the record stays plain JSON. Seed 000's rules hold across turns: a group stays
 * open until its turn yields; `group_report` `any` reports each task, `all` the sealed group once every
 * task ended, `none` nothing; APPEND and REPLACE results are merged into what the next turn sees as they
 * are reported; HUMAN_GATED results become a pending merge (one per task, or one per group as a batch).
 */

/** The limits of a session's tasks: the agent's `tasks` options, counted per session. */
export interface SessionTaskLimits {
  /** Tasks running at once; more wait as `queued`. */
  maxConcurrent: number;
  /** Tasks spawned over the session's life (`maxPerRun` of the agent, per session). */
  maxPerSession: number;
  /** For tasks that name no `merge_strategy`. */
  defaultMergeStrategy: MergeStrategy;
}

export interface SessionTaskSpawn {
  events: NewSessionEvent[];
  task: {
    taskId: string;
    runId: string;
    name: string;
    mode: "subagent" | "tool";
    mergeStrategy: MergeStrategy;
    groupId?: string;
    group?: string;
    tool?: string;
    /** True when the task asked to keep the turn (`retain_turn`, on it or its group). */
    retainTurn: boolean;
    /** `running`: start its run now; `queued`: it waits for a slot (`maxConcurrent`). */
    status: "queued" | "running";
  };
}

/** Spawns a task of turn `turn`: its id, its group (found, created, perhaps sealed), whether it starts now. */
export function spawnSessionTask(
  record: SessionRecord,
  input: { action: TaskAction; turn: number; parentRunId: string; runId: string; limits: SessionTaskLimits },
): SessionTaskSpawn {
  if (record.status === "closed") {
    throw new TaskError("session_closed", "This session is closed: no more tasks can start in it.");
  }
  const args = parseTaskAction(input.action);
  const { limits } = input;
  if (record.tasks.length >= limits.maxPerSession) {
    throw new TaskError(
      "task_limit_exceeded",
      `This session already spawned ${record.tasks.length} tasks, its limit (maxPerRun, per session): ` +
        "continue with the results you have instead of spawning more.",
      { limit: limits.maxPerSession, spawned: record.tasks.length },
    );
  }
  const groups = toGroupRecords(record);
  const group = findOrCreateGroup({
    groups,
    args,
    turn: input.turn,
    createGroupId: () => `group_${groups.size + 1}`,
  });
  if (group !== undefined) {
    applyGroupArgs(group, args);
    // retain_turn waits for the whole group: nothing may join it after (as the in-run manager seals it).
    if (args.retain_turn === true) group.sealed = true;
  }
  const taskId = `task_${record.tasks.length + 1}`;
  const mode = "query" in args ? "subagent" : "tool";
  const mergeStrategy = args.merge_strategy ?? limits.defaultMergeStrategy;
  const running = record.tasks.filter((task) => task.status === "running").length;
  const status = running < limits.maxConcurrent ? "running" : "queued";
  const events: NewSessionEvent[] = [
    {
      type: "task_spawned",
      data: {
        taskId,
        runId: input.runId,
        parentRunId: input.parentRunId,
        name: args.name,
        mode,
        mergeStrategy,
        turn: input.turn,
        ...("query" in args ? { query: args.query } : { tool: args.tool, toolArgs: args.tool_args }),
        ...(group === undefined
          ? {}
          : {
              groupId: group.groupId,
              group: {
                name: group.name,
                turn: group.turn,
                sealed: group.sealed,
                report: group.report,
                retainTurn: group.retainTurn,
                ...(group.groupMergeStrategy === undefined
                  ? {}
                  : { mergeStrategy: group.groupMergeStrategy }),
              },
            }),
      },
    },
  ];
  if (status === "running") {
    events.push({
      type: "task_update",
      data: {
        taskId,
        runId: input.runId,
        status: "running",
        ...(group === undefined ? {} : { groupId: group.groupId }),
      },
    });
  }
  return {
    events,
    task: {
      taskId,
      runId: input.runId,
      name: args.name,
      mode,
      mergeStrategy,
      ...(group === undefined ? {} : { groupId: group.groupId, group: group.name }),
      ...("tool" in args ? { tool: args.tool } : {}),
      retainTurn: args.retain_turn === true || group?.retainTurn === true,
      status,
    },
  };
}

/** How a task ended (from its run): its result (bounded), or why it did not complete. */
export interface SessionTaskOutcome {
  taskId: string;
  status: Exclude<SessionTaskStatus, "queued" | "running">;
  result?: unknown;
  error?: { code: string; message: string };
  usage?: Usage;
}

/**
 * A task ended: its `task_update` (with the error when it failed or timed out), its group's reports and
 * merges, and the queued tasks that may start in the slot it freed (`start`: they are `running` in the
 * events; start their runs). Nothing when the task already ended (a second instance hearing the same end).
 */
export function applySessionTaskOutcome(
  record: SessionRecord,
  outcome: SessionTaskOutcome,
  limits: Pick<SessionTaskLimits, "maxConcurrent">,
): { events: NewSessionEvent[]; start: SessionTask[] } {
  const task = record.tasks.find((item) => item.taskId === outcome.taskId);
  if (task === undefined || TERMINAL_TASK_STATUSES.has(task.status)) return { events: [], start: [] };
  const ended: SessionTask = {
    ...task,
    status: outcome.status,
    ...(outcome.result === undefined ? {} : { result: outcome.result }),
    ...(outcome.error === undefined ? {} : { error: outcome.error }),
  };
  const tasks = record.tasks.map((item) => (item.taskId === task.taskId ? ended : item));
  const events: NewSessionEvent[] = [];
  const kept = outcome.status !== "cancelled";
  const group =
    task.groupId === undefined ? undefined : record.groups?.find((g) => g.groupId === task.groupId);
  const update = {
    taskId: task.taskId,
    runId: task.runId,
    status: outcome.status,
    ...(outcome.result === undefined ? {} : { result: outcome.result }),
    ...(outcome.error === undefined ? {} : { error: outcome.error }),
    ...(task.groupId === undefined ? {} : { groupId: task.groupId }),
    ...(outcome.usage === undefined ? {} : { usage: outcome.usage }),
  };
  if (group === undefined) {
    const gated = task.mergeStrategy === "HUMAN_GATED";
    events.push({ type: "task_update", data: { ...update, merged: kept && !gated } });
    if (kept && gated) {
      events.push({
        type: "merge_pending",
        data: {
          mergeId: `merge_${task.taskId}`,
          name: task.name,
          strategy: "HUMAN_GATED",
          tasks: [toMergeTask(ended)],
        },
      });
    }
  } else {
    events.push({ type: "task_update", data: update });
    const strategy = getGroupStrategy(group, tasks);
    const gated = strategy === "HUMAN_GATED";
    if (group.report === "any" && !group.complete) {
      events.push({
        type: "task_group_report",
        data: {
          groupId: group.groupId,
          name: group.name,
          report: "any",
          mergeStrategy: strategy,
          tasks: [toMergeTask(ended)],
          merged: kept && !gated,
        },
      });
    }
    events.push(...getGroupCompletionEvents({ ...group }, tasks));
  }
  // The slot it freed: the oldest queued tasks start.
  const start: SessionTask[] = [];
  if (task.status === "running") {
    let free = limits.maxConcurrent - tasks.filter((item) => item.status === "running").length;
    for (const queued of tasks) {
      if (free <= 0) break;
      if (queued.status !== "queued") continue;
      free -= 1;
      start.push({ ...queued, status: "running" });
      events.push({
        type: "task_update",
        data: {
          taskId: queued.taskId,
          runId: queued.runId,
          status: "running",
          ...(queued.groupId === undefined ? {} : { groupId: queued.groupId }),
        },
      });
    }
  }
  return { events, start };
}

/**
 * The events of turn `turn` yielding (written with its `turn_ended`, or the `turn_updated` of a pause):
 * the turn's open groups are sealed by that event's fold, and those whose tasks all ended already report
 * now.
 */
export function sealSessionTurn(record: SessionRecord, turn: number): NewSessionEvent[] {
  const events: NewSessionEvent[] = [];
  for (const group of record.groups ?? []) {
    if (group.turn !== turn || group.sealed) continue;
    events.push(...getGroupCompletionEvents({ ...group, sealed: true }, record.tasks));
  }
  return events;
}

/**
 * What a turn waiting on a task (`retain_turn`) gets once it ended, or its group completed: undefined while
 * it goes on. HUMAN_GATED results are `held` (they wait for a person as a pending merge).
 */
export function getSessionWaitResult(
  record: SessionRecord,
  request: { taskId: string; groupId?: string },
  status: HostedWaitResult["status"] = "completed",
): HostedWaitResult | undefined {
  const toEntry = (task: SessionTask) => ({
    taskId: task.taskId,
    name: task.name,
    status: task.status,
    ...(task.result === undefined ? {} : { result: task.result }),
    ...(task.error === undefined ? {} : { error: task.error }),
  });
  const group =
    request.groupId === undefined ? undefined : record.groups?.find((g) => g.groupId === request.groupId);
  if (group !== undefined) {
    const tasks = record.tasks.filter((task) => task.groupId === group.groupId);
    if (!group.complete && status === "completed") return undefined;
    const strategy = getGroupStrategy(group, tasks);
    return {
      status,
      name: group.name,
      groupId: group.groupId,
      report: group.report,
      strategy,
      tasks: tasks.map(toEntry),
      ...(strategy === "HUMAN_GATED" && group.report !== "none"
        ? { held: { mergeId: `merge_${group.groupId}` } }
        : {}),
    };
  }
  const task = record.tasks.find((item) => item.taskId === request.taskId);
  if (task === undefined) return undefined;
  if (!TERMINAL_TASK_STATUSES.has(task.status) && status === "completed") return undefined;
  return {
    status,
    name: task.name,
    strategy: task.mergeStrategy,
    tasks: [toEntry(task)],
    ...(task.mergeStrategy === "HUMAN_GATED" ? { held: { mergeId: `merge_${task.taskId}` } } : {}),
  };
}

/**
 * The results merged into what the next turn sees, for `SessionContext.merged`: those merged after the
 * turns the context summary covers (earlier ones reached the turns that followed them, now summarized).
 */
export function getSessionMergedResults(record: SessionRecord): MergedResult[] {
  return (record.merged ?? [])
    .filter((merged) => merged.afterTurn >= record.compactedThroughTurn)
    .map((merged) => ({
      name: merged.name,
      strategy: merged.strategy,
      ...(merged.groupId === undefined ? {} : { groupId: merged.groupId }),
      afterTurn: merged.afterTurn,
      tasks: merged.tasks.map((task) => ({
        taskId: task.taskId,
        name: task.name,
        status: task.status,
        ...(task.result === undefined ? {} : { result: task.result }),
        ...(task.error === undefined ? {} : { error: task.error }),
      })),
    }));
}
