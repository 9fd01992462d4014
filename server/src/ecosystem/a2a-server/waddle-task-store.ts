import { Task, TaskState } from "@a2a-js/sdk";
import type { ListTasksRequest, ListTasksResponse } from "@a2a-js/sdk";
import type { TaskStore } from "@a2a-js/sdk/server";
import type { WaddleStore } from "../../store/waddle-store.js";
import { listTasksUnsupported } from "./waddle-request-handler.js";
import { getAnswerArtifact, getRunTaskStatus, getTaskState, getWaddleMeta } from "./a2a-task-mapping.js";

const SETTLED = new Set([
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
]);

/**
 * The A2A SDK's task store over the Waddle store (`a2aTasks`): tasks survive a restart and read the same on
 * any instance. A loaded task catches up with its run when the run moved on without this task being told
 * (it ended or paused after a restart, or on another instance).
 */
export class WaddleTaskStore implements TaskStore {
  constructor(
    private readonly store: WaddleStore,
    private readonly agentId: string,
  ) {}

  async save(task: Task): Promise<void> {
    const meta = getWaddleMeta(task);
    await this.store.a2aTasks.save({
      taskId: task.id,
      agentId: this.agentId,
      contextId: task.contextId,
      ...(meta?.runId ? { runId: meta.runId } : {}),
      task: Task.toJSON(task),
      updatedAt: Date.now(),
    });
  }

  async load(taskId: string): Promise<Task | undefined> {
    const record = await this.store.a2aTasks.get(taskId);
    if (!record || record.agentId !== this.agentId) return undefined;
    const task = Task.fromJSON(record.task);
    const state = task.status?.state;
    if (!record.runId || (state !== undefined && SETTLED.has(state))) return task;
    const run = await this.store.getRun(record.runId);
    if (!run || getTaskState(run.status) === state) return task;
    if (run.status === "queued" || run.status === "running") return task;
    const ids = { taskId: task.id, contextId: task.contextId };
    task.status = getRunTaskStatus(run, ids);
    const artifact = getAnswerArtifact(run);
    if (artifact && !task.artifacts.some((entry) => entry.artifactId === artifact.artifactId)) {
      task.artifacts = [...task.artifacts, artifact];
    }
    return task;
  }

  /** Never an empty list that is not one: the request handler refuses ListTasks before it gets here. */
  list(_params: ListTasksRequest): Promise<ListTasksResponse> {
    return Promise.reject(listTasksUnsupported());
  }
}
