import {
  TaskState,
  type AgentCard,
  type Message,
  type CancelTaskRequest,
  type SendMessageRequest,
  type StreamResponse,
  type Task,
} from "@a2a-js/sdk";
import { DefaultRequestHandler, type AgentExecutor, type ServerCallContext } from "@a2a-js/sdk/server";
import { RequestMalformedError, UnsupportedOperationError } from "@a2a-js/sdk/errors";
import type { RunCommands } from "../../runs/run-service.js";
import { PauseAnswer } from "./waddle-agent-executor.js";
import { getWaddleMeta, readMessage } from "./a2a-task-mapping.js";
import type { WaddleTaskStore } from "./waddle-task-store.js";

const TERMINAL = new Set([
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
]);

/**
 * The SDK's request handler with Waddle's refusals first: a message on a task takes only an
 * `input-required` task (the answer to its pause, a valid `{decision, args?, note?}`), and a cancel cancels
 * the Waddle run even when no stream of this instance follows it.
 */
export class WaddleRequestHandler extends DefaultRequestHandler {
  constructor(
    card: AgentCard,
    private readonly parts: { tasks: WaddleTaskStore; runs: RunCommands },
    executor: AgentExecutor,
  ) {
    super(card, parts.tasks, executor);
  }

  override async sendMessage(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): Promise<Task | Message> {
    await this.refuseFollowUp(params);
    return super.sendMessage(params, context);
  }

  override async *sendMessageStream(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    await this.refuseFollowUp(params);
    yield* super.sendMessageStream(params, context);
  }

  override async cancelTask(params: CancelTaskRequest, context: ServerCallContext): Promise<Task> {
    const parts = this.parts;
    const task = await parts.tasks.load(params.id);
    const runId = task && getWaddleMeta(task)?.runId;
    const state = task?.status?.state;
    if (runId && state !== undefined && !TERMINAL.has(state)) {
      // Ends the run wherever it runs (a paused one, one followed on another instance).
      await parts.runs.cancelRun(runId).catch(() => undefined);
    }
    return super.cancelTask(params, context);
  }

  private async refuseFollowUp(params: SendMessageRequest): Promise<void> {
    const message = params.message;
    const parts = this.parts;
    if (!message?.taskId) return;
    const task = await parts.tasks.load(message.taskId);
    const state = task?.status?.state;
    // Unknown and ended tasks: the SDK's own errors (task not found, unsupported operation).
    if (!task || state === undefined || TERMINAL.has(state)) return;
    if (state !== TaskState.TASK_STATE_INPUT_REQUIRED) {
      throw new UnsupportedOperationError(
        `Task ${task.id} is not input-required (it is still working): send a message on it only to answer its pause, or start a new task.`,
      );
    }
    const { data } = readMessage(message);
    if (data && !PauseAnswer.safeParse(data).success) {
      throw new RequestMalformedError(
        `The answer to task ${task.id}'s pause must be a data part {"decision": "approve" | "reject" | "edit", "args"?: {…}, "note"?: "…"}.`,
      );
    }
  }
}
