import { Task, TaskState } from "@a2a-js/sdk";
import type { ListTasksRequest, ListTasksResponse } from "@a2a-js/sdk";
import type { TaskStore } from "@a2a-js/sdk/server";
import { RequestMalformedError } from "@a2a-js/sdk/errors";
import { z } from "zod";
import type { A2aTaskRecord } from "../../store/a2a-tasks/a2a-task-store.js";
import type { WaddleStore } from "../../store/waddle-store.js";
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
    return this.catchUp(record);
  }

  /**
   * ListTasks (v1.0) over this agent's stored tasks (the newest `MAX_LISTED`), each caught up with its run:
   * filtered by `contextId`, `status` and `statusTimestampAfter`, the latest status first, in pages of
   * `pageSize` (the request handler checks it is 1–100) with an opaque `pageToken`. The route is per agent
   * and the access guard keeps a key to its agents, so nothing here is of an agent outside its scope.
   */
  async list(params: ListTasksRequest): Promise<ListTasksResponse> {
    const pageSize = params.pageSize ?? DEFAULT_PAGE_SIZE;
    const records = await this.store.a2aTasks.list({
      agentId: this.agentId,
      ...(params.contextId ? { contextId: params.contextId } : {}),
      limit: MAX_LISTED,
    });
    const after = params.statusTimestampAfter ? Date.parse(params.statusTimestampAfter) : undefined;
    const tasks = (await Promise.all(records.map((record) => this.catchUp(record))))
      .filter((task) => !params.status || task.status?.state === params.status)
      .filter((task) => after === undefined || Date.parse(task.status?.timestamp ?? "") >= after)
      .sort(byLatestStatus);
    const cursor = params.pageToken ? decodeCursor(params.pageToken) : undefined;
    const rest = cursor ? tasks.filter((task) => byLatestStatus(task, cursor) > 0) : tasks;
    const page = rest.slice(0, pageSize);
    const last = page.at(-1);
    return {
      tasks: page.map((task) => (params.includeArtifacts ? task : { ...task, artifacts: [] })),
      nextPageToken: last && rest.length > page.length ? encodeCursor(last) : "",
      pageSize,
      totalSize: tasks.length,
    };
  }

  /** The stored task, caught up with its run when the run moved on without this task being told. */
  private async catchUp(record: A2aTaskRecord): Promise<Task> {
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
}

/** ListTasks' default page, as the spec says ("at most 50"). */
const DEFAULT_PAGE_SIZE = 50;
/** The most tasks ListTasks reads for one agent: the newest saved. */
export const MAX_LISTED = 1000;

interface Cursor {
  id: string;
  status?: { timestamp?: string | undefined } | undefined;
}

/** The latest status first, then by id (descending), as the SDK's own task store orders them. */
function byLatestStatus(a: Cursor, b: Cursor): number {
  const timeA = a.status?.timestamp ?? "";
  const timeB = b.status?.timestamp ?? "";
  if (timeA !== timeB) return timeA < timeB ? 1 : -1;
  return a.id === b.id ? 0 : a.id < b.id ? 1 : -1;
}

function encodeCursor(task: Cursor): string {
  return Buffer.from(JSON.stringify([task.status?.timestamp ?? "", task.id])).toString("base64url");
}

const CursorJson = z.tuple([z.string(), z.string()]);

function decodeCursor(token: string): Cursor {
  try {
    const [timestamp, id] = CursorJson.parse(JSON.parse(Buffer.from(token, "base64url").toString("utf8")));
    return { id, status: { timestamp } };
  } catch {
    throw new RequestMalformedError("pageToken is not one this server gave: pass nextPageToken as it came.");
  }
}
