import { PlannerError } from "./planner-error.js";

export const TASK_ERROR_CODES = [
  "invalid_task_args",
  "task_limit_exceeded",
  "unknown_task_group",
  "task_group_sealed",
  "unknown_task",
  "unknown_merge",
  "merge_requires_decision",
  "tasks_cancelled",
  "session_closed",
  "task_timeout",
  "task_interrupted",
  /** A shadow comparison starts no background task: it was not recorded, so it never runs. */
  "not_recorded",
] as const;
export type TaskErrorCode = (typeof TASK_ERROR_CODES)[number];

/** A refused task operation; its `code` and message go back to the LLM as a tool failure. */
export class TaskError extends PlannerError<TaskErrorCode> {
  constructor(code: TaskErrorCode, message: string, details?: Record<string, unknown>) {
    super(code, message, details === undefined ? {} : { details });
    this.name = "TaskError";
  }
}
