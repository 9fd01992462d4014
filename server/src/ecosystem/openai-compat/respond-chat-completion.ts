import type { Response } from "express";
import type { RunEvent, RunRecord } from "@waddle/protocol";
import type { RequestKey } from "../request-key.js";
import type { AgentRunner } from "../run-agent.js";
import { runAgentOnce } from "../run-agent-once.js";
import { getRunOutcome, type AgentRunOutcome, type RunOutcomeOptions } from "../run-outcome.js";
import { getRunFailure } from "./get-run-failure.js";
import type { ChatQuery } from "./get-chat-query.js";
import { ChatDeltaTracker } from "../../runs/chat-delta-tracker.js";
import {
  createChatCompletion,
  createChatCompletionChunk,
  createUsageChunk,
  getFinishReason,
  getWaddleExtension,
  type ChatCompletionHead,
} from "./create-chat-completion.js";
import { getOpenAiErrorBody, sendOpenAiError } from "./openai-error.js";
import { SseWriter } from "../../http/sse-writer.js";
import type { ResolvedRunTarget } from "../../releases/resolve-run-target.js";

export interface RespondChatCompletionOptions {
  runner: AgentRunner;
  response: Response;
  agentId: string;
  /** The model as the request named it (`support-triage@staging`), echoed in the answer; default `agentId`. */
  model?: string;
  /** The version to run and the channel it came from; a session's turn runs the session's own version. */
  target?: ResolvedRunTarget;
  chat: ChatQuery;
  stream: boolean;
  includeUsage: boolean;
  outcomeOptions: RunOutcomeOptions;
  /** Aborts when the client went away: the run is cancelled (not under an `Idempotency-Key`). */
  signal: AbortSignal;
  /** Set when the client may send this request again: a retry answers from the first run. */
  requestKey?: RequestKey;
  /** `x-waddle-session-id`: the request is the session's next turn, which sees the session's context. */
  sessionId?: string;
  /** `response_format`'s schema: the run's answer is an object, and the content its JSON text. */
  answerSchema?: Record<string, unknown>;
}

/**
 * Runs the agent on the chat's query and answers as the Chat Completions API does: whole, or streamed as
 * `chat.completion.chunk` events while the run goes. A client that goes away cancels the run; a run that
 * fails is an error: a 500 with `x-should-retry: false`, or a 400 once a tool with side effects ran, since
 * some clients retry any 5xx and a retry would run the agent again. A request with a key (`requestKey`)
 * that an earlier request holds answers from that request's run.
 */
export async function respondChatCompletion(options: RespondChatCompletionOptions): Promise<void> {
  const { response, agentId } = options;
  const head: ChatCompletionHead = {
    id: "",
    created: Math.floor(Date.now() / 1000),
    model: options.model ?? agentId,
  };
  const tracker = new ChatDeltaTracker();
  const sse = options.stream ? new SseWriter(response) : undefined;
  const chunk = (delta: Parameters<typeof createChatCompletionChunk>[0]["delta"]) =>
    sse?.send(createChatCompletionChunk({ head, delta, includeUsage: options.includeUsage }));
  const run = await runAgentOnce(
    options.runner,
    {
      agentId,
      query: options.chat.query,
      ...(options.target ? { target: options.target } : {}),
      ...(options.answerSchema ? { answerSchema: options.answerSchema } : {}),
      ...(options.sessionId
        ? { sessionId: options.sessionId }
        : options.chat.contextMeta
          ? { contextMeta: options.chat.contextMeta }
          : {}),
      signal: options.signal,
      onStarted: (runId) => {
        head.id = `chatcmpl-${runId}`;
        response.setHeader("x-waddle-run-id", runId);
        sse?.open();
        chunk({ role: "assistant", content: "" });
      },
      onEvent: (event: RunEvent) => {
        const delta = tracker.onEvent(event);
        if (delta) chunk(delta);
      },
    },
    options.requestKey,
  );
  if (options.signal.aborted) return; // nobody is listening; the run was cancelled
  const outcome = getRunOutcome(run, options.outcomeOptions);
  if (outcome.kind === "failure") return sendFailure(options, outcome, run, sse);
  if (!sse) {
    const content = outcome.kind === "answer" ? outcome.answer : outcome.text;
    response.json(createChatCompletion({ head, outcome, content, reasoning: tracker.reasoning, run }));
    return;
  }
  const tail = outcome.kind === "answer" ? tracker.finish(outcome.answer) : tracker.addText(outcome.text);
  if (tail) chunk(tail);
  sse.send(
    createChatCompletionChunk({
      head,
      delta: {},
      finishReason: getFinishReason(outcome),
      includeUsage: options.includeUsage,
      extra: { waddle: getWaddleExtension(outcome) },
    }),
  );
  if (options.includeUsage) sse.send(createUsageChunk(head, run));
  sse.done();
}

async function sendFailure(
  options: RespondChatCompletionOptions,
  outcome: Extract<AgentRunOutcome, { kind: "failure" }>,
  run: RunRecord,
  sse: SseWriter | undefined,
): Promise<void> {
  const { error, sideEffects: calls } = await getRunFailure(
    options.runner.store,
    run,
    outcome,
    options.runner.mcp,
  );
  const waddle = { ...getWaddleExtension(outcome), ...(calls.length > 0 ? { sideEffects: calls } : {}) };
  if (!sse) return sendOpenAiError(options.response, error, { waddle });
  // Mid-stream, OpenAI sends the error as an event: clients raise it.
  sse.send({ ...getOpenAiErrorBody(error), waddle });
  sse.end();
}
