import type { ResponseFormat } from "@waddle/protocol";

export interface LlmMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

export interface LlmUsage {
  promptTokens: number;
  completionTokens: number;
  reasoningTokens?: number;
}

/** A raw streaming delta: action JSON text on `content`, native reasoning on `reasoning`. */
export interface LlmChunk {
  content?: string;
  reasoning?: string;
}

export interface LlmCompleteOptions {
  messages: readonly LlmMessage[];
  /** `json_schema` asks for the two-field `planner_action` schema. */
  responseFormat?: ResponseFormat;
  stream?: boolean;
  /** Called with each delta while streaming; the planner feeds content through `AnswerStreamExtractor`. */
  onChunk?: (chunk: LlmChunk) => void;
  reasoningEffort?: "low" | "medium" | "high";
  /** Picks one of the client's models (the router may choose it); the client's default otherwise. */
  model?: string;
  signal?: AbortSignal;
  /** What the call is for; in-process models use it, remote ones may log it. */
  purpose?:
    "plan" | "repair" | "arg_fill" | "correction" | "summarize" | "route" | "tool" | "subagent" | "answer";
  /**
   * The planner's structured view of the run so far, for in-process models (the offline model) that plan
   * from the agent's structure. Remote clients ignore it; it never leaves the process.
   */
  plannerView?: unknown;
}

export interface LlmResult {
  content: string;
  reasoning?: string;
  usage?: LlmUsage;
  /** The model that answered, when the endpoint says. */
  model?: string;
  /** USD for this call, from the client's price table, when known. */
  costUsd?: number;
  /**
   * Why the reply ended, when the endpoint says (`stop`, `length`, `content_filter`, …). `length` means it
   * was cut off at the output token limit: the planner repairs such a reply, it never runs it.
   */
  finishReason?: string;
  /** Served from an earlier run's record, not asked of the model (a fork's `reuse: "recorded"`). */
  cached?: true;
  /** A reply a person wrote in place of the model's (a fork's `llm_reply` edit). */
  edited?: true;
}

/** One small interface for every model: OpenAI-compatible endpoints, the offline model, scripted tests. */
export interface LlmClient {
  readonly provider: string;
  readonly model: string;
  /** True for the embedded offline model: events and logs say so. */
  readonly offline?: boolean;
  complete(options: LlmCompleteOptions): Promise<LlmResult>;
}
