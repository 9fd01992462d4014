import { randomUUID } from "node:crypto";
import {
  Role,
  TaskState,
  type Artifact,
  type Message,
  type Part,
  type Task,
  type TaskStatus,
} from "@a2a-js/sdk";
import type { RunRecord, RunStatus } from "@waddle/protocol";
import { getWaitingFor } from "../run-outcome.js";

/** Where a task keeps its Waddle ids: `task.metadata.waddle`. */
export interface WaddleTaskMeta {
  agentId: string;
  runId?: string;
  sessionId?: string;
}

export function getWaddleMeta(task: Task): WaddleTaskMeta | undefined {
  const meta = task.metadata?.waddle as WaddleTaskMeta | undefined;
  return meta && typeof meta.agentId === "string" ? meta : undefined;
}

export const textPart = (text: string): Part => ({
  content: { $case: "text", value: text },
  metadata: undefined,
  filename: "",
  mediaType: "text/plain",
});

export const dataPart = (value: Record<string, unknown>, metadata?: Record<string, unknown>): Part => ({
  content: { $case: "data", value },
  metadata,
  filename: "",
  mediaType: "application/json",
});

export function agentMessage(parts: Part[], ids: { taskId: string; contextId: string }): Message {
  return {
    messageId: randomUUID(),
    contextId: ids.contextId,
    taskId: ids.taskId,
    role: Role.ROLE_AGENT,
    parts,
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

/** The A2A state of a run's status: a paused run waits for input. */
export function getTaskState(status: RunStatus): TaskState {
  switch (status) {
    case "queued":
      return TaskState.TASK_STATE_SUBMITTED;
    case "running":
      return TaskState.TASK_STATE_WORKING;
    case "paused":
      return TaskState.TASK_STATE_INPUT_REQUIRED;
    case "finished":
      return TaskState.TASK_STATE_COMPLETED;
    case "cancelled":
      return TaskState.TASK_STATE_CANCELED;
    default:
      return TaskState.TASK_STATE_FAILED;
  }
}

/**
 * The status a run that ended or paused is told with: a paused run is `input-required` with the pause's
 * reason, args and resume token in a data part (answer it with a message carrying `{decision, args?, note?}`);
 * a failed one says why.
 */
export function getRunTaskStatus(run: RunRecord, ids: { taskId: string; contextId: string }): TaskStatus {
  const state = getTaskState(run.status);
  const timestamp = new Date().toISOString();
  if (run.status === "paused" && run.pause) {
    const { reason, payload, resumeToken } = run.pause;
    const waitingFor = getWaitingFor(run.pause);
    const message = agentMessage(
      [
        textPart(
          `Waiting for ${waitingFor}. Answer with a data part {"decision": "approve" | "reject" | "edit", "args"?, "note"?}.`,
        ),
        dataPart({ reason, args: payload.args ?? null, payload, resumeToken, waitingFor }),
      ],
      ids,
    );
    return { state, message, timestamp };
  }
  if (state === TaskState.TASK_STATE_FAILED || state === TaskState.TASK_STATE_CANCELED) {
    const text = run.error?.message ?? `The run ended as ${run.status}.`;
    return { state, message: agentMessage([textPart(text)], ids), timestamp };
  }
  return { state, message: undefined, timestamp };
}

/** The answer of a finished run as the task's artifact; its thinking as a separate part when asked. */
export function getAnswerArtifact(run: RunRecord, thinking?: string): Artifact | undefined {
  const result = run.result;
  if (run.status !== "finished" || result?.kind !== "finish") return undefined;
  const parts = [textPart(result.payload.answer)];
  if (thinking) parts.push({ ...textPart(thinking), metadata: { kind: "thinking" } });
  return {
    artifactId: `answer-${run.id}`,
    name: "answer",
    description: "The agent's answer",
    parts,
    metadata: { waddle: { runId: run.id } },
    extensions: [],
  };
}

/** The text of a message's text parts, and its first data part. */
export function readMessage(message: Message): { text: string; data?: Record<string, unknown> } {
  const texts: string[] = [];
  let data: Record<string, unknown> | undefined;
  for (const part of message.parts) {
    const content = part.content;
    if (content?.$case === "text") texts.push(content.value);
    else if (content?.$case === "data" && data === undefined && isRecord(content.value)) data = content.value;
  }
  return { text: texts.join("\n"), ...(data ? { data } : {}) };
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
