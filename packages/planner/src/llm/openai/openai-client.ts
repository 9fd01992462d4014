import type { LlmConfig } from "@waddle/protocol";
import OpenAI from "openai";
import { AttemptControl } from "./attempt-control.js";
import type { LlmChunk, LlmClient, LlmCompleteOptions, LlmResult } from "../llm-client.js";
import { LlmError } from "../../errors/llm-error.js";
import { abortableSleep, type Sleep } from "../../util/abortable-sleep.js";
import { getBackoffMs, type BackoffPolicy } from "./llm-retry.js";
import { classifyAttemptFailure, type AttemptFailure } from "./openai-failure.js";
import {
  applyChatChunk,
  createChatReply,
  finishChatReply,
  readChatCompletion,
  type ChatReply,
} from "./openai-reply.js";
import { buildChatRequest, type ChatRequestBody } from "./openai-request.js";
import { defaultParamDropMemory, DROPPABLE_PARAMS, type ParamDropMemory } from "./param-drop-memory.js";
import { computeCostUsd, getModelPrice, type PriceTable } from "../price-table.js";

export const DEFAULT_OPENAI_BASE_URL = "https://api.openai.com/v1";
export const DEFAULT_API_KEY_ENV = "OPENAI_API_KEY";
/** Per attempt: the whole reply when not streaming, the longest silence between chunks when streaming. */
export const DEFAULT_LLM_TIMEOUT_MS = 120_000;
/** A server asking for a longer pause than this fails the call instead of holding the run. */
export const MAX_RETRY_AFTER_MS = 60_000;

export interface OpenAiClientOptions {
  config: LlmConfig;
  /** Overrides the key read from the environment. Held by the SDK only; never logged or put in errors. */
  apiKey?: string;
  /** Where `apiKeyEnv`, `OPENAI_API_KEY` and `OPENAI_BASE_URL` are read; `process.env` by default. */
  env?: Readonly<Record<string, string | undefined>>;
  fetch?: typeof globalThis.fetch;
  /** Retries after 429, 5xx, timeouts and network errors (default 2). */
  maxRetries?: number;
  sleep?: Sleep;
  backoff?: BackoffPolicy;
  /** Extends the default price table (the spec's `llm.price` applies to `config.model` on top). */
  priceTable?: PriceTable;
  /** Where refused parameters are remembered; one process-wide memory by default. */
  paramMemory?: ParamDropMemory;
}

/**
 * An `LlmClient` for any OpenAI-compatible chat completions endpoint (OpenAI, Azure, OpenRouter, DeepSeek,
 * vLLM, Ollama, LM Studio, a LiteLLM proxy), on the `openai` package. Streams content and reasoning deltas
 * (native, or a leading `<think>` block of the content), drops parameters the endpoint refuses, retries
 * transient failures and reports usage and cost.
 */
export class OpenAiClient implements LlmClient {
  readonly provider = "openai";
  readonly model: string;
  readonly offline = false;
  /** The endpoint, without credentials (safe to show). */
  readonly baseURL: string;
  readonly #sdk: OpenAI;
  readonly #secret: string;
  readonly #keyVariable: string;
  readonly #config: LlmConfig;
  readonly #maxRetries: number;
  readonly #sleep: Sleep;
  readonly #backoff: BackoffPolicy | undefined;
  readonly #prices: PriceTable;
  readonly #memory: ParamDropMemory;
  readonly #timeoutMs: number;

  constructor(options: OpenAiClientOptions) {
    const env = options.env ?? process.env;
    const config = options.config;
    this.#keyVariable = config.apiKeyEnv ?? DEFAULT_API_KEY_ENV;
    const key = options.apiKey ?? env[this.#keyVariable];
    if (key === undefined || key.trim() === "") {
      throw new LlmError(
        "missing_api_key",
        `No API key for ${config.model}: set the environment variable ${this.#keyVariable}` +
          " (for a local server that needs no key, any placeholder value works), or use the offline model.",
        { details: { variable: this.#keyVariable, provider: "openai", model: config.model } },
      );
    }
    this.#secret = key;
    this.#config = config;
    this.model = config.model;
    const baseURL = config.baseUrl ?? env.OPENAI_BASE_URL ?? DEFAULT_OPENAI_BASE_URL;
    this.baseURL = withoutCredentials(baseURL);
    this.#timeoutMs = config.timeoutMs ?? DEFAULT_LLM_TIMEOUT_MS;
    this.#maxRetries = options.maxRetries ?? 2;
    this.#sleep = options.sleep ?? abortableSleep;
    this.#backoff = options.backoff;
    this.#memory = options.paramMemory ?? defaultParamDropMemory;
    this.#prices = { ...options.priceTable, ...(config.price ? { [config.model]: config.price } : {}) };
    this.#sdk = new OpenAI({
      apiKey: key,
      baseURL,
      organization: env.OPENAI_ORG_ID ?? null,
      project: env.OPENAI_PROJECT_ID ?? null,
      adminAPIKey: null,
      webhookSecret: null,
      // Retries are ours (retry-after, drop_params, no retry once deltas reached the planner).
      maxRetries: 0,
      timeout: this.#timeoutMs,
      logLevel: "off",
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
  }

  async complete(options: LlmCompleteOptions): Promise<LlmResult> {
    const model = options.model ?? this.#config.model;
    let retries = 0;
    let refusals = 0;
    for (;;) {
      if (options.signal?.aborted) throw this.#cancelled(model);
      const adjustments = this.#memory.get(this.baseURL, model);
      const body = buildChatRequest({ config: this.#config, options, adjustments });
      const outcome = await this.#attempt(body, options);
      if (!("failure" in outcome)) return this.#toResult(outcome.reply, model);
      const { failure } = outcome;
      if (failure.refusal !== undefined && refusals < DROPPABLE_PARAMS.length) {
        // The same request once more without the refused parameter; remembered for this model.
        if (this.#memory.record({ baseURL: this.baseURL, model, refusal: failure.refusal })) {
          refusals += 1;
          continue;
        }
      }
      if (!failure.retryable || retries >= this.#maxRetries) throw withAttempts(failure.error, retries + 1);
      const delayMs = failure.retryAfterMs ?? getBackoffMs(retries, this.#backoff);
      if (delayMs > MAX_RETRY_AFTER_MS) throw withAttempts(failure.error, retries + 1);
      try {
        await this.#sleep(delayMs, options.signal);
      } catch {
        throw this.#cancelled(model);
      }
      retries += 1;
    }
  }

  async #attempt(
    body: ChatRequestBody,
    options: LlmCompleteOptions,
  ): Promise<{ reply: ChatReply } | { failure: AttemptFailure }> {
    const control = new AttemptControl({ timeoutMs: this.#timeoutMs, signal: options.signal });
    const reply = createChatReply();
    try {
      if (body.stream)
        await this.#stream({ body, control, reply, onChunk: control.forward(options.onChunk) });
      else Object.assign(reply, await this.#whole(body, control));
      return { reply };
    } catch (error) {
      if (control.callbackFailed) throw control.callbackError;
      const failure = classifyAttemptFailure(error, {
        model: body.model,
        host: hostOf(this.baseURL),
        keyVariable: this.#keyVariable,
        secret: this.#secret,
        body,
        reply,
        cancelled: control.cancelled,
        timedOut: control.timedOut,
        timeoutMs: this.#timeoutMs,
      });
      return { failure };
    } finally {
      control.dispose();
    }
  }

  async #stream(input: {
    body: ChatRequestBody;
    control: AttemptControl;
    reply: ChatReply;
    onChunk: ((chunk: LlmChunk) => void) | undefined;
  }): Promise<void> {
    const { body, control, reply, onChunk } = input;
    const stream = await this.#sdk.chat.completions.create(
      { ...(body as unknown as OpenAI.ChatCompletionCreateParamsStreaming), stream: true },
      { signal: control.signal },
    );
    for await (const chunk of stream) {
      control.arm();
      applyChatChunk(reply, chunk, onChunk);
    }
    // The SDK ends iteration quietly when aborted; a stream without a finish reason was cut off.
    if (control.signal.aborted) throw new Error("aborted");
    if (reply.finishReason === undefined) throw new Error("the stream ended before the reply was complete");
    // Only a complete reply passes on text held back as a possible tag: a cut-off one may still be retried.
    finishChatReply(reply, onChunk);
    if (control.callbackFailed) throw control.callbackError;
  }

  async #whole(body: ChatRequestBody, control: AttemptControl): Promise<ChatReply> {
    const completion = await this.#sdk.chat.completions.create(
      { ...(body as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming), stream: false },
      { signal: control.signal },
    );
    const read = readChatCompletion(completion);
    if (read === undefined) throw new SyntaxError("the completion has no choices");
    return read;
  }

  #toResult(reply: ChatReply, model: string): LlmResult {
    const result: LlmResult = { content: reply.content, model: reply.model ?? model };
    if (reply.reasoning !== "") result.reasoning = reply.reasoning;
    if (reply.finishReason !== undefined) result.finishReason = reply.finishReason;
    if (reply.usage !== undefined) {
      result.usage = reply.usage;
      const price = getModelPrice(model, this.#prices) ?? getModelPrice(result.model ?? model, this.#prices);
      if (price !== undefined) result.costUsd = computeCostUsd(reply.usage, price);
    }
    return result;
  }

  #cancelled(model: string): LlmError {
    return new LlmError("cancelled", `The call to ${model} at ${hostOf(this.baseURL)} was cancelled.`, {
      details: { provider: "openai", model },
    });
  }
}

function withAttempts(error: LlmError, attempts: number): LlmError {
  return new LlmError(error.code, error.message, {
    details: { ...error.details, attempts },
    ...(error.cause === undefined ? {} : { cause: error.cause }),
  });
}

function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = "";
    parsed.password = "";
    return parsed.toString().replace(/\/$/, "");
  } catch {
    return url;
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "the configured endpoint";
  }
}
