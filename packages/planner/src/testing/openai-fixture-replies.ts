/** Token counts the fixture reports; estimated from the text (about four characters a token) when unset. */
export interface FixtureUsage {
  prompt_tokens: number;
  completion_tokens: number;
  reasoning_tokens?: number;
}

/** A scripted chat completion, answered streamed (SSE) or whole, as the request asks. */
export interface FixtureCompletion {
  kind: "completion";
  content: string;
  /** Native reasoning, sent before the content. */
  reasoning?: string;
  /** The field reasoning travels in: `reasoning_content` (DeepSeek, vLLM) by default, or `reasoning`. */
  reasoningField?: "reasoning_content" | "reasoning";
  /** Content deltas when streaming; by default the content cut into `chunkSize` pieces (8). */
  chunks?: readonly string[];
  chunkSize?: number;
  /** Pause between deltas. */
  chunkDelayMs?: number;
  /** Pause before the first delta (streaming: after the headers) or before the whole reply. */
  firstTokenDelayMs?: number;
  /** `false` sends no usage block. */
  usage?: FixtureUsage | false;
  model?: string;
  finishReason?: string;
  /**
   * Streaming only: stop after this many content deltas, before any finish reason or `[DONE]`. `end` closes
   * the response cleanly, `destroy` (default) resets the connection.
   */
  cutOff?: { afterChunks: number; mode?: "end" | "destroy" };
}

/** An HTTP error in OpenAI's shape: `{error: {message, type, param, code}}`. */
export interface FixtureHttpError {
  kind: "http_error";
  status: number;
  message: string;
  type?: string;
  param?: string | null;
  code?: string | null;
  headers?: Readonly<Record<string, string>>;
}

/** The connection is reset before any response: a network error. */
export interface FixtureDropConnection {
  kind: "drop_connection";
}

export type FixtureReply = FixtureCompletion | FixtureHttpError | FixtureDropConnection;

type CompletionOptions = Omit<FixtureCompletion, "kind" | "content">;

/** Builders for scripted replies and faults. */
export const fixtureReply = {
  /** A completion with this text as content. */
  text(content: string, options: CompletionOptions = {}): FixtureCompletion {
    return { ...options, kind: "completion", content };
  },
  /** A completion whose content is this value as JSON (a planner action, say). */
  json(value: unknown, options: CompletionOptions = {}): FixtureCompletion {
    return { ...options, kind: "completion", content: JSON.stringify(value) };
  },
  /** A `final_response` action answering `answer`. */
  finalAnswer(answer: string, options: CompletionOptions = {}): FixtureCompletion {
    return fixtureReply.json({ next_node: "final_response", args: { answer } }, options);
  },
  /**
   * Reasoning inside a leading `<think>…</think>` block of the content, then `content`: what DeepSeek-R1-
   * and Qwen-style models send through vLLM, Ollama or LM Studio without a reasoning parser. Small
   * `chunkSize`s or explicit `chunks` split the tags across deltas.
   */
  thinkTagged(reasoning: string, content: string, options: CompletionOptions = {}): FixtureCompletion {
    return { ...options, kind: "completion", content: `<think>\n${reasoning}\n</think>\n\n${content}` };
  },
  /** 429 with `retry-after` (seconds or an HTTP date) and/or `retry-after-ms`. */
  rateLimited(options: { retryAfter?: string | number; retryAfterMs?: number } = {}): FixtureHttpError {
    const headers: Record<string, string> = {};
    if (options.retryAfter !== undefined) headers["retry-after"] = String(options.retryAfter);
    if (options.retryAfterMs !== undefined) headers["retry-after-ms"] = String(options.retryAfterMs);
    return {
      kind: "http_error",
      status: 429,
      message: "Rate limit reached for requests. Please try again later.",
      type: "requests",
      code: "rate_limit_exceeded",
      headers,
    };
  },
  serverError(
    status = 500,
    message = "The server had an error while processing your request.",
  ): FixtureHttpError {
    return { kind: "http_error", status, message, type: "server_error" };
  },
  /** The 400 OpenAI sends for a parameter the model does not support, naming it. */
  refuseParam(param: string): FixtureHttpError {
    return {
      kind: "http_error",
      status: 400,
      message: `Unsupported parameter: '${param}' is not supported with this model.`,
      type: "invalid_request_error",
      param,
      code: "unsupported_parameter",
    };
  },
  /** Headers at once, then a long wait before the first delta. */
  slowFirstToken(content: string, delayMs: number, options: CompletionOptions = {}): FixtureCompletion {
    return { ...options, kind: "completion", content, firstTokenDelayMs: delayMs };
  },
  /** A planner action whose JSON never closes. */
  malformedJson(options: CompletionOptions = {}): FixtureCompletion {
    return {
      ...options,
      kind: "completion",
      content: '{"next_node": "final_response", "args": {"answer": "Half',
    };
  },
  /** Streams `content` but stops after `afterChunks` deltas. */
  cutOff(content: string, afterChunks: number, options: CompletionOptions = {}): FixtureCompletion {
    return { ...options, kind: "completion", content, cutOff: { afterChunks, ...options.cutOff } };
  },
  dropConnection(): FixtureDropConnection {
    return { kind: "drop_connection" };
  },
};
