import type { MergeStrategy, TaskStatus } from "@waddle/protocol";

/** Why a task failed (a type alias so that it fits event data). */
export type TaskErrorInfo = {
  code: string;
  message: string;
};

/** One task's outcome inside a merge or a group report (a type alias so that it fits event data). */
export type TaskResultEntry = {
  taskId: string;
  name: string;
  status: TaskStatus;
  result?: unknown;
  error?: TaskErrorInfo;
};

/** Results waiting for the planner to fold them into the trajectory. */
export interface PendingMerge {
  mergeId: string;
  /** `task`: one task's result. `group`: a group's combined result. */
  kind: "task" | "group";
  strategy: MergeStrategy;
  /** HUMAN_GATED: `applyMerge` needs an explicit approve or reject. */
  requiresApproval: boolean;
  name: string;
  groupId?: string;
  tasks: TaskResultEntry[];
  createdAt: number;
}
