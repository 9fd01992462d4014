import type { RunRecord } from "@waddle/protocol";

/** A reasoning item: the agent's thinking, as `reasoning_text` parts. */
export interface ReasoningItem {
  type: "reasoning";
  id: string;
  summary: never[];
  content: { type: "reasoning_text"; text: string }[];
  status: "in_progress" | "completed";
}

/** An assistant message: the answer, as one `output_text` part. */
export interface MessageItem {
  type: "message";
  id: string;
  role: "assistant";
  status: "in_progress" | "completed" | "incomplete";
  content: { type: "output_text"; text: string; annotations: never[]; logprobs: never[] }[];
}

export type OutputItem = ReasoningItem | MessageItem;

export type ResponseStatus = "in_progress" | "completed" | "failed" | "incomplete" | "cancelled";

/** The Responses API's `usage`, from the run's totals over all its LLM calls. */
export function getResponseUsage(run: Pick<RunRecord, "usage">): Record<string, unknown> {
  const { promptTokens, completionTokens, reasoningTokens } = run.usage;
  return {
    input_tokens: promptTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: completionTokens,
    output_tokens_details: { reasoning_tokens: reasoningTokens },
    total_tokens: promptTokens + completionTokens,
  };
}

/**
 * A `response` object. Its id is the run's id (so `previous_response_id` names a run, and through it a
 * session); `conversation` is the session.
 */
export function createResponseObject(options: {
  runId: string;
  model: string;
  createdAt: number;
  status: ResponseStatus;
  output: readonly OutputItem[];
  run?: Pick<RunRecord, "usage">;
  sessionId?: string;
  previousResponseId?: string | null;
  error?: { code: string; message: string } | null;
  incompleteReason?: "max_output_tokens" | "content_filter" | null;
  metadata?: Record<string, string>;
  waddle?: Record<string, unknown>;
}): Record<string, unknown> {
  return {
    id: options.runId,
    object: "response",
    created_at: options.createdAt,
    status: options.status,
    background: false,
    error: options.error ?? null,
    incomplete_details: options.incompleteReason ? { reason: options.incompleteReason } : null,
    instructions: null,
    max_output_tokens: null,
    model: options.model,
    output: structuredClone(options.output),
    parallel_tool_calls: false,
    previous_response_id: options.previousResponseId ?? null,
    ...(options.sessionId ? { conversation: { id: options.sessionId } } : {}),
    reasoning: { effort: null, summary: null },
    store: true,
    temperature: null,
    text: { format: { type: "text" } },
    tool_choice: "auto",
    tools: [],
    top_p: null,
    truncation: "disabled",
    usage: options.run ? getResponseUsage(options.run) : null,
    metadata: options.metadata ?? {},
    ...(options.waddle ? { waddle: options.waddle } : {}),
  };
}
