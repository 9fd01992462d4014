import type { MergeStrategy, MergeTask } from "@waddle/protocol";

/** A group's report as the session heard it (`task_group_report`): the record keeps none, the chat does. */
export interface ChatGroupReport {
  seq: number;
  ts: number;
  groupId: string;
  name: string;
  report: "all" | "any";
  mergeStrategy: MergeStrategy;
  tasks: MergeTask[];
}

/** A turn sent from this page whose `turn_started` has not come back yet. */
export interface PendingTurn {
  runId: string;
  query: string;
}
