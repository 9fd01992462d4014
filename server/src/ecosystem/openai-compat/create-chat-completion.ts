import type { RunRecord } from "@waddle/protocol";
import type { AgentRunOutcome } from "../run-outcome.js";
import type { ChatDelta } from "../../runs/chat-delta-tracker.js";

/** Chat Completions' `usage`, from the run's totals over all its LLM calls. */
export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  completion_tokens_details: { reasoning_tokens: number };
}

/** What every completion and chunk of one request shares. */
export interface ChatCompletionHead {
  id: string;
  created: number;
  model: string;
}

type AnsweredOutcome = Exclude<AgentRunOutcome, { kind: "failure" }>;

export function getChatUsage(run: RunRecord): ChatUsage {
  const { promptTokens, completionTokens, reasoningTokens } = run.usage;
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
    completion_tokens_details: { reasoning_tokens: reasoningTokens },
  };
}

/** `length` when the run ran out of steps or budget, else `stop` (a pause included). */
export function getFinishReason(outcome: AnsweredOutcome): "stop" | "length" {
  return outcome.kind === "answer" &&
    (outcome.reason === "max_iters" || outcome.reason === "budget_exhausted")
    ? "length"
    : "stop";
}

/** The `waddle` extension field: the run, and the pause with how to resume it. */
export function getWaddleExtension(outcome: AgentRunOutcome): Record<string, unknown> {
  switch (outcome.kind) {
    case "answer":
      return { runId: outcome.runId, status: outcome.status, reason: outcome.reason };
    case "pause":
      return { runId: outcome.runId, status: outcome.status, pause: outcome.pause };
    case "failure":
      return { runId: outcome.runId, status: outcome.status, error: outcome.error };
  }
}

/** A whole `chat.completion`. */
export function createChatCompletion(options: {
  head: ChatCompletionHead;
  outcome: AnsweredOutcome;
  content: string;
  reasoning: string;
  run: RunRecord;
}): Record<string, unknown> {
  const message: Record<string, unknown> = { role: "assistant", content: options.content, refusal: null };
  if (options.reasoning.length > 0) message.reasoning_content = options.reasoning;
  return {
    ...options.head,
    object: "chat.completion",
    choices: [{ index: 0, message, logprobs: null, finish_reason: getFinishReason(options.outcome) }],
    usage: getChatUsage(options.run),
    waddle: getWaddleExtension(options.outcome),
  };
}

/** One `chat.completion.chunk`; `usage: null` on every chunk when the client asked for usage at the end. */
export function createChatCompletionChunk(options: {
  head: ChatCompletionHead;
  delta: ChatDelta & { role?: "assistant" };
  finishReason?: "stop" | "length";
  includeUsage: boolean;
  extra?: Record<string, unknown>;
}): Record<string, unknown> {
  return {
    ...options.head,
    object: "chat.completion.chunk",
    choices: [
      { index: 0, delta: options.delta, logprobs: null, finish_reason: options.finishReason ?? null },
    ],
    ...(options.includeUsage ? { usage: null } : {}),
    ...options.extra,
  };
}

/** The last chunk when usage was asked for: no choices, the run's usage. */
export function createUsageChunk(head: ChatCompletionHead, run: RunRecord): Record<string, unknown> {
  return { ...head, object: "chat.completion.chunk", choices: [], usage: getChatUsage(run) };
}
