import {
  AgentEvent,
  STATE_HEADERS_KEY,
  type RequestHeaders,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
} from "@a2a-js/sdk/server";
import { TaskState, type Task } from "@a2a-js/sdk";
import { ResumeDecision, type RunEvent, type RunRecord } from "@waddle/protocol";
import { z } from "zod";
import { followAgentRun, type AgentRunner } from "../run-agent.js";
import type { SessionTurns } from "../../sessions/session-turns.js";
import {
  agentMessage,
  getAnswerArtifact,
  getRunTaskStatus,
  getWaddleMeta,
  readMessage,
  textPart,
  type WaddleTaskMeta,
} from "./a2a-task-mapping.js";

/** What a message on an `input-required` task carries in a data part: the answer to the run's pause. */
export const PauseAnswer = z.object({
  decision: ResumeDecision,
  args: z.record(z.string(), z.unknown()).optional(),
  note: z.string().max(100_000).optional(),
});
export type PauseAnswer = z.infer<typeof PauseAnswer>;

export interface WaddleAgentExecutorOptions {
  agentId: string;
  /** The version a new context's session pins (resolved from the path's channel); default the latest. */
  agentVersion?: number;
  /** The channel `agentVersion` was resolved from, recorded on the sessions of new contexts. */
  channel?: string | undefined;
  runner: AgentRunner & { turns: SessionTurns };
}

/**
 * Runs a saved agent for A2A: a new task is a turn of the Waddle session named by the `contextId` (the
 * session is made on first use, so multi-turn conversations share context), a message on an
 * `input-required` task answers the run's pause through the run service's resume. Status updates follow
 * the run's tool calls; the answer comes as an artifact, then `completed`.
 */
export class WaddleAgentExecutor implements AgentExecutor {
  constructor(private readonly options: WaddleAgentExecutorOptions) {}

  async execute(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const { taskId, contextId } = context;
    const ids = { taskId, contextId };
    const message = context.userMessage;
    const wantsThinking = context.request.metadata?.thinking === true || message.metadata?.thinking === true;
    const { runner } = this.options;
    let meta: WaddleTaskMeta;
    if (context.task) {
      meta = requireMeta(context.task);
      await this.answerPause(meta, context);
      bus.publish(AgentEvent.task({ ...context.task, status: working() }));
    } else {
      const { text } = readMessage(message);
      // The caller's headers (a W3C `traceparent` for tracing): `getRequestHeaders(context)`.
      const sessionId = await this.ensureSession(contextId);
      const started = await runner.turns.start({ sessionId, agentId: this.options.agentId, query: text });
      meta = { agentId: this.options.agentId, runId: started.runId, sessionId };
      const task: Task = {
        id: taskId,
        contextId,
        status: {
          state: TaskState.TASK_STATE_SUBMITTED,
          message: undefined,
          timestamp: new Date().toISOString(),
        },
        artifacts: [],
        history: [message],
        metadata: { waddle: meta },
      };
      bus.publish(AgentEvent.task(task));
      bus.publish(AgentEvent.statusUpdate({ taskId, contextId, status: working(), metadata: undefined }));
    }
    const thoughts: string[] = [];
    const run = await followAgentRun(runner, meta.runId!, {
      onEvent: (event) => {
        const note = getProgressNote(event);
        if (note) {
          bus.publish(
            AgentEvent.statusUpdate({
              taskId,
              contextId,
              status: { ...working(), message: agentMessage([textPart(note)], ids) },
              metadata: { waddleEvent: { type: event.type, seq: event.seq } },
            }),
          );
        }
        if (event.type === "reasoning") thoughts.push(event.data.summary);
      },
    });
    publishOutcome(bus, run, ids, wantsThinking ? thoughts.join("\n") : undefined);
    bus.finished();
  }

  async cancelTask(taskId: string, bus: ExecutionEventBus): Promise<void> {
    const record = await this.options.runner.store.a2aTasks.get(taskId);
    if (record?.runId) await this.options.runner.runs.cancelRun(record.runId).catch(() => undefined);
    const contextId = record?.contextId ?? "";
    const ids = { taskId, contextId };
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId,
        status: {
          state: TaskState.TASK_STATE_CANCELED,
          message: agentMessage([textPart("The run was cancelled.")], ids),
          timestamp: new Date().toISOString(),
        },
        metadata: undefined,
      }),
    );
    bus.finished();
  }

  /** The session of this context: made with the context's id on first use. */
  private async ensureSession(contextId: string): Promise<string> {
    const { store } = this.options.runner;
    if (await store.sessions.get(contextId)) return contextId;
    const agent = await store.getAgent(this.options.agentId);
    if (!agent) throw new Error(`Agent "${this.options.agentId}" is gone.`);
    const { agentVersion = agent.version, channel } = this.options;
    const pinned = this.options.agentVersion === undefined || channel === undefined ? {} : { channel };
    await store.sessions.create({ id: contextId, agentId: agent.id, agentVersion, ...pinned });
    return contextId;
  }

  private async answerPause(meta: WaddleTaskMeta, context: RequestContext): Promise<void> {
    const { runner } = this.options;
    const run = meta.runId ? await runner.store.getRun(meta.runId) : undefined;
    if (!run?.pause || run.status !== "paused")
      throw new Error(`Task ${context.taskId} has no pause to answer.`);
    const answer = getPauseAnswer(context);
    await runner.runs.resumeRun(run.id, {
      resumeToken: run.pause.resumeToken,
      decision: answer.decision,
      ...(answer.args ? { args: answer.args } : {}),
      ...(answer.note !== undefined ? { userInput: answer.note } : {}),
    });
  }
}

/** The A2A request's HTTP headers (lower-case names), e.g. its `traceparent`. */
export function getRequestHeaders(context: Pick<RequestContext, "context">): RequestHeaders {
  const headers = context.context.state.get(STATE_HEADERS_KEY);
  return typeof headers === "object" && headers !== null ? (headers as RequestHeaders) : {};
}

/**
 * The answer a message carries: its data part `{decision, args?, note?}`, or, with no data part, its text
 * as the input of an approval (`note`).
 */
export function getPauseAnswer(context: Pick<RequestContext, "userMessage">): PauseAnswer {
  const { text, data } = readMessage(context.userMessage);
  if (data) return PauseAnswer.parse(data);
  return { decision: "approve", ...(text ? { note: text } : {}) };
}

function requireMeta(task: Task): WaddleTaskMeta {
  const meta = getWaddleMeta(task);
  if (!meta?.runId) throw new Error(`Task ${task.id} has no Waddle run.`);
  return meta;
}

function working() {
  return { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: new Date().toISOString() };
}

/** A line for the run's progress: a tool call starting, a retry, a pause. */
function getProgressNote(event: RunEvent): string | undefined {
  switch (event.type) {
    case "tool_start":
      return `Calling ${event.data.tool}`;
    case "tool_error":
      return `Tool ${String((event.data as { tool?: unknown }).tool ?? "")} failed`;
    case "resumed":
      return "Resumed";
    default:
      return undefined;
  }
}

function publishOutcome(
  bus: ExecutionEventBus,
  run: RunRecord,
  ids: { taskId: string; contextId: string },
  thinking: string | undefined,
): void {
  const artifact = getAnswerArtifact(run, thinking);
  if (artifact) {
    bus.publish(
      AgentEvent.artifactUpdate({ ...ids, artifact, append: false, lastChunk: true, metadata: undefined }),
    );
  }
  bus.publish(AgentEvent.statusUpdate({ ...ids, status: getRunTaskStatus(run, ids), metadata: undefined }));
}
