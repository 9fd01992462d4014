import type { GroupReport, MergeStrategy, TaskSubagentArgs } from "@waddle/protocol";
import { TaskError } from "../errors/task-error.js";

/** The group fields of a task action (`task.subagent` and `task.tool` share them). */
export type TaskGroupArgs = Pick<
  TaskSubagentArgs,
  | "group"
  | "group_id"
  | "group_sealed"
  | "group_report"
  | "group_merge_strategy"
  | "retain_turn"
  | "merge_strategy"
>;

/** A group inside the manager (mutable; snapshots go out). */
export interface GroupRecord {
  groupId: string;
  name: string;
  turn: number;
  sealed: boolean;
  report: GroupReport;
  /** Last explicit `group_merge_strategy`. */
  groupMergeStrategy?: MergeStrategy;
  retainTurn: boolean;
  taskIds: string[];
  /** Set once the group finished and was reported/merged. */
  completed: boolean;
}

/**
 * Finds the group a task joins (docs/task-groups.md): `group_id` joins that existing group; `group` alone joins the
 * OPEN group of that name created in the current turn, or creates one. Returns undefined for an
 * ungrouped task. Throws for an unknown or sealed group.
 */
export function findOrCreateGroup(input: {
  groups: Map<string, GroupRecord>;
  args: TaskGroupArgs;
  turn: number;
  createGroupId: () => string;
}): GroupRecord | undefined {
  const { groups, args } = input;
  if (args.group_id !== undefined) {
    const group = groups.get(args.group_id);
    if (group === undefined) {
      throw new TaskError(
        "unknown_task_group",
        `No task group has id "${args.group_id}": use the group_id returned when the group was created, ` +
          'or "group" with a name to create one.',
        { groupId: args.group_id },
      );
    }
    if (group.sealed) {
      throw new TaskError(
        "task_group_sealed",
        `Task group "${group.name}" (${group.groupId}) is sealed: no more tasks can join it; start a new group.`,
        { groupId: group.groupId },
      );
    }
    return group;
  }
  if (args.group === undefined) return undefined;
  for (const group of groups.values()) {
    if (group.name === args.group && group.turn === input.turn && !group.sealed) return group;
  }
  const created: GroupRecord = {
    groupId: input.createGroupId(),
    name: args.group,
    turn: input.turn,
    sealed: false,
    report: "all",
    retainTurn: false,
    taskIds: [],
    completed: false,
  };
  groups.set(created.groupId, created);
  return created;
}

/** Group settings given by a joining task: the last explicit value wins; `retain_turn` only turns on. */
export function applyGroupArgs(group: GroupRecord, args: TaskGroupArgs): void {
  if (args.group_report !== undefined) group.report = args.group_report;
  if (args.group_merge_strategy !== undefined) group.groupMergeStrategy = args.group_merge_strategy;
  if (args.retain_turn === true) group.retainTurn = true;
  if (args.group_sealed === true) group.sealed = true;
}

/**
 * The strategy of a group's combined result: explicit `group_merge_strategy`, else inherited from the
 * tasks' `merge_strategy` — HUMAN_GATED if any task asked for it (a person must see it), else the first.
 */
export function resolveGroupMergeStrategy(
  group: GroupRecord,
  taskStrategies: readonly MergeStrategy[],
  fallback: MergeStrategy,
): MergeStrategy {
  if (group.groupMergeStrategy !== undefined) return group.groupMergeStrategy;
  if (taskStrategies.includes("HUMAN_GATED")) return "HUMAN_GATED";
  return taskStrategies[0] ?? fallback;
}
