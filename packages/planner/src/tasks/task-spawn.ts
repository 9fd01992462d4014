import { type MergeStrategy, type RunEventData, TaskSubagentArgs, TaskToolArgs } from "@waddle/protocol";
import { TaskError } from "../errors/task-error.js";
import type { GroupRecord } from "./task-groups.js";
import type { TaskRecord } from "./task-snapshots.js";
import type { TaskAction, TaskJob } from "./task-types.js";

export type TaskActionArgs = TaskSubagentArgs | TaskToolArgs;

/** Validates a task action's args (they come from the LLM); throws `invalid_task_args` with a fix. */
export function parseTaskAction(action: TaskAction): TaskActionArgs {
  const subagent = action.next_node === "task.subagent";
  const parsed = (subagent ? TaskSubagentArgs : TaskToolArgs).safeParse(action.args);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((item) => ({
    path: item.path.join(".") || "args",
    message: item.message,
  }));
  throw new TaskError(
    "invalid_task_args",
    `${action.next_node} args are invalid (${issues.map((issue) => `${issue.path}: ${issue.message}`).join("; ")}); ` +
      (subagent ? "send {name, query, …}." : "send {name, tool, tool_args, …}."),
    { issues },
  );
}

export function createTaskJob(args: TaskActionArgs, taskId: string): TaskJob {
  return "query" in args
    ? { taskId, name: args.name, mode: "subagent", query: args.query }
    : { taskId, name: args.name, mode: "tool", tool: args.tool, toolArgs: args.tool_args };
}

/** Throws `task_limit_exceeded` once a run has spawned `limit` tasks. */
export function assertTaskLimit(spawned: number, limit: number): void {
  if (spawned < limit) return;
  throw new TaskError(
    "task_limit_exceeded",
    `This run already spawned ${spawned} tasks, its limit (maxPerRun): continue with the results you ` +
      "have or wait for running tasks instead of spawning more.",
    { limit, spawned },
  );
}

/** A new queued task record. */
export function createTaskRecord(input: {
  args: TaskActionArgs;
  job: TaskJob;
  group: GroupRecord | undefined;
  spawnedAt: number;
  defaultMergeStrategy: MergeStrategy;
}): TaskRecord {
  const { job, group } = input;
  const task: TaskRecord = {
    job,
    taskId: job.taskId,
    name: job.name,
    mode: job.mode,
    status: "queued",
    mergeStrategy: input.args.merge_strategy ?? input.defaultMergeStrategy,
    spawnedAt: input.spawnedAt,
  };
  if (job.query !== undefined) task.query = job.query;
  if (job.tool !== undefined) task.tool = job.tool;
  if (group !== undefined) task.groupId = group.groupId;
  return task;
}

export function getTaskSpawnedEventData(
  task: TaskRecord,
  group: GroupRecord | undefined,
): RunEventData<"task_spawned"> {
  const data: RunEventData<"task_spawned"> = {
    taskId: task.taskId,
    name: task.name,
    mode: task.mode,
    mergeStrategy: task.mergeStrategy,
  };
  if (group !== undefined) {
    data.groupId = group.groupId;
    data.group = group.name;
  }
  if (task.tool !== undefined) data.tool = task.tool;
  return data;
}
