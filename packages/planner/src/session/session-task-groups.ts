// A session's task groups (docs/background-tasks.md, "Tasks with a host"): how the session record's groups
// map to the in-run manager's `GroupRecord`, which merge strategy a group has, and what a sealed group whose
// tasks all ended reports and merges. Pure, over the record, for `session-task-ledger.ts`.
import {
  TERMINAL_TASK_STATUSES,
  type GroupReport,
  type MergeStrategy,
  type MergeTask,
  type NewSessionEvent,
  type SessionRecord,
  type SessionTask,
  type SessionTaskGroup,
} from "@waddle/protocol";
import { resolveGroupMergeStrategy, type GroupRecord } from "../tasks/task-groups.js";

/** A sealed group whose tasks all ended: `all` reports (and merges unless gated); gated results wait as one batch. */
export function getGroupCompletionEvents(
  group: SessionTaskGroup,
  tasks: readonly SessionTask[],
): NewSessionEvent[] {
  if (group.complete || !group.sealed) return [];
  const members = tasks.filter((task) => task.groupId === group.groupId);
  if (!members.every((task) => TERMINAL_TASK_STATUSES.has(task.status))) return [];
  if (group.report === "none") return [];
  const strategy = getGroupStrategy(group, members);
  const gated = strategy === "HUMAN_GATED";
  const events: NewSessionEvent[] = [];
  if (group.report === "all") {
    events.push({
      type: "task_group_report",
      data: {
        groupId: group.groupId,
        name: group.name,
        report: "all",
        mergeStrategy: strategy,
        tasks: members.map(toMergeTask),
        merged: !gated,
      },
    });
  }
  if (gated) {
    events.push({
      type: "merge_pending",
      data: {
        mergeId: `merge_${group.groupId}`,
        name: group.name,
        groupId: group.groupId,
        strategy,
        tasks: members.map(toMergeTask),
      },
    });
  }
  return events;
}

/** The group's merge strategy: its own, else inherited from its tasks (`resolveGroupMergeStrategy`), else APPEND. */
export function getGroupStrategy(group: SessionTaskGroup, members: readonly SessionTask[]): MergeStrategy {
  const strategies = members
    .filter((task) => task.groupId === group.groupId)
    .map((task) => task.mergeStrategy);
  return resolveGroupMergeStrategy(toGroupRecord(group, members), strategies, "APPEND");
}

/** The session's groups as the in-run task manager's records, for finding or creating a task's group. */
export function toGroupRecords(record: SessionRecord): Map<string, GroupRecord> {
  return new Map((record.groups ?? []).map((group) => [group.groupId, toGroupRecord(group, record.tasks)]));
}

function toGroupRecord(group: SessionTaskGroup, tasks: readonly SessionTask[]): GroupRecord {
  return {
    groupId: group.groupId,
    name: group.name,
    turn: group.turn,
    sealed: group.sealed,
    report: group.report satisfies GroupReport,
    ...(group.mergeStrategy === undefined ? {} : { groupMergeStrategy: group.mergeStrategy }),
    retainTurn: group.retainTurn,
    taskIds: tasks.filter((task) => task.groupId === group.groupId).map((task) => task.taskId),
    completed: group.complete,
  };
}

/** A task as a report or a pending merge lists it. */
export function toMergeTask(task: SessionTask): MergeTask {
  return {
    taskId: task.taskId,
    runId: task.runId,
    name: task.name,
    status: task.status,
    ...(task.result === undefined ? {} : { result: task.result }),
    ...(task.error === undefined ? {} : { error: task.error }),
  };
}
