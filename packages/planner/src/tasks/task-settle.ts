import type { MergeStrategy, RunEventData } from "@waddle/protocol";
import type { GroupRecord } from "./task-groups.js";
import type { TaskResultEntry } from "../run/pending-merge.js";
import type { TaskSnapshot } from "./task-types.js";

/**
 * Reports and merges a group after one of its tasks finished or it was sealed (docs/task-groups.md):
 * `any` reports each finished task; `all` reports once, when the sealed group is done; `none` never
 * reports (callers poll). Merges follow the group's strategy, except that HUMAN_GATED results are held
 * until the group is done and then offered as one batch. A cancelled run reports and merges nothing.
 */
export function settleTaskGroup<Task extends TaskSnapshot>(input: {
  group: GroupRecord;
  tasks: readonly Task[];
  strategy: MergeStrategy;
  /** The task that just reached a terminal state, if that is why we are here. */
  finished: Task | undefined;
  closed: boolean;
  isTerminal: (task: Task) => boolean;
  /** Report entries always carry `result` (null when there is none): the event schema requires the key. */
  toEntry: (task: Task, preview: boolean) => TaskResultEntry & { result: unknown };
  report: (data: RunEventData<"task_group_report">) => void;
  addMerge: (merge: {
    kind: "task" | "group";
    strategy: MergeStrategy;
    name: string;
    tasks: readonly Task[];
  }) => void;
}): void {
  const { group, strategy, finished } = input;
  if (group.completed) return;
  const gated = strategy === "HUMAN_GATED";
  if (finished !== undefined && group.report === "any" && !input.closed) {
    input.report({
      groupId: group.groupId,
      name: group.name,
      report: "any",
      mergeStrategy: strategy,
      tasks: [input.toEntry(finished, true)],
    });
    if (!gated && finished.status !== "cancelled") {
      input.addMerge({ kind: "task", strategy, name: finished.name, tasks: [finished] });
    }
  }
  if (!group.sealed || !input.tasks.every(input.isTerminal)) return;
  group.completed = true;
  if (input.closed || group.report === "none") return;
  if (group.report === "all") {
    input.report({
      groupId: group.groupId,
      name: group.name,
      report: "all",
      mergeStrategy: strategy,
      tasks: input.tasks.map((task) => input.toEntry(task, true)),
    });
  }
  if (group.report === "all" || gated) {
    input.addMerge({ kind: "group", strategy, name: group.name, tasks: input.tasks });
  }
}
