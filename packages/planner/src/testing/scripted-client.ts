import type { ResponseFormat } from "@waddle/protocol";
import type { LlmClient, LlmCompleteOptions, LlmMessage, LlmResult, LlmUsage } from "../llm/llm-client.js";
import { PlannerError } from "../errors/planner-error.js";

/** One call the client received, as recorded in `ScriptedClient.calls`. */
export interface ScriptedCall {
  /** 0-based index of the call. */
  index: number;
  /** A copy of the messages array (the planner may keep appending to its own). */
  messages: readonly LlmMessage[];
  responseFormat?: ResponseFormat;
  purpose?: LlmCompleteOptions["purpose"];
  plannerView?: unknown;
  reasoningEffort?: LlmCompleteOptions["reasoningEffort"];
  stream: boolean;
  model?: string;
}

/** Per-reply behaviour; wrap content with `scriptedReply(content, options)` to use it. */
export interface ScriptedReplyOptions {
  /** Wait this long before answering (aborts with the call's signal). */
  delayMs?: number;
  /** When the call streams, deliver the content through `onChunk` in pieces of this many characters. */
  chunkSize?: number;
  /** Native reasoning text: returned on `reasoning`, and streamed first on the thinking channel. */
  reasoning?: string;
  usage?: LlmUsage;
  costUsd?: number;
  model?: string;
  /** Returned as `LlmResult.finishReason` (`length`: a reply cut off at the token limit). */
  finishReason?: string;
}

/** What a reply may be: text, an object (sent as JSON), or an error to throw. */
export type ScriptedContent = string | Error | Readonly<Record<string, unknown>> | readonly unknown[];

const REPLY = Symbol("scriptedReply");

export interface ScriptedReplyWithOptions extends ScriptedReplyOptions {
  readonly [REPLY]: true;
  content: ScriptedContent;
}

/** A reply computed from the call (it may look at the messages or the planner view). */
export type ScriptedReplyFunction = (
  call: ScriptedCall,
) => ScriptedContent | ScriptedReplyWithOptions | Promise<ScriptedContent | ScriptedReplyWithOptions>;

export type ScriptedReply = ScriptedContent | ScriptedReplyWithOptions | ScriptedReplyFunction;

/** Wraps a reply with per-reply options (delay, chunking, reasoning, usage). */
export function scriptedReply(
  content: ScriptedContent,
  options: ScriptedReplyOptions = {},
): ScriptedReplyWithOptions {
  return { ...options, content, [REPLY]: true };
}

export interface ScriptedClientOptions {
  provider?: string;
  model?: string;
  offline?: boolean;
  /** Defaults for every reply; per-reply options win. */
  defaults?: ScriptedReplyOptions;
  /**
   * Usage reported when a reply gives none: by default about one token per four characters, so that token
   * budgets can be exercised; `false` reports no usage.
   */
  estimateUsage?: boolean;
}

/**
 * An `LlmClient` that answers from a script, for tests and examples. Replies are used in order; each call
 * is recorded in `calls`. Running out of replies throws a `PlannerError` with code `script_exhausted`.
 */
export class ScriptedClient implements LlmClient {
  readonly provider: string;
  readonly model: string;
  readonly offline?: boolean;
  readonly calls: ScriptedCall[] = [];
  private readonly replies: ScriptedReply[];
  private readonly defaults: ScriptedReplyOptions;
  private readonly estimateUsage: boolean;

  constructor(replies: readonly ScriptedReply[] = [], options: ScriptedClientOptions = {}) {
    this.replies = [...replies];
    this.provider = options.provider ?? "scripted";
    this.model = options.model ?? "scripted-model";
    if (options.offline !== undefined) this.offline = options.offline;
    this.defaults = options.defaults ?? {};
    this.estimateUsage = options.estimateUsage ?? true;
  }

  /** Appends replies to the end of the script. */
  push(...replies: ScriptedReply[]): this {
    this.replies.push(...replies);
    return this;
  }

  /** Replies not used yet. */
  get remaining(): number {
    return this.replies.length - this.calls.length;
  }

  async complete(options: LlmCompleteOptions): Promise<LlmResult> {
    const call = this.record(options);
    options.signal?.throwIfAborted();
    const entry = this.replies[call.index];
    if (entry === undefined) {
      throw new PlannerError(
        "script_exhausted",
        `ScriptedClient has ${this.replies.length} replies but received call ${call.index + 1} ` +
          `(purpose: ${call.purpose ?? "unspecified"}); add a reply for it.`,
        { details: { calls: this.calls.length, purpose: call.purpose } },
      );
    }
    const resolved = typeof entry === "function" ? await entry(call) : entry;
    const reply = isWrapped(resolved) ? resolved : { content: resolved };
    const settings: ScriptedReplyOptions = { ...this.defaults, ...stripContent(reply) };
    if (settings.delayMs !== undefined && settings.delayMs > 0) {
      await abortableDelay(settings.delayMs, options.signal);
    }
    options.signal?.throwIfAborted();
    if (reply.content instanceof Error) throw reply.content;
    const content = typeof reply.content === "string" ? reply.content : JSON.stringify(reply.content);
    if (options.stream === true && options.onChunk !== undefined) {
      streamReply({ content, settings, onChunk: options.onChunk, signal: options.signal });
    }
    return this.toResult({ content, settings, messages: options.messages });
  }

  private record(options: LlmCompleteOptions): ScriptedCall {
    const call: ScriptedCall = {
      index: this.calls.length,
      messages: [...options.messages],
      stream: options.stream === true,
    };
    if (options.responseFormat !== undefined) call.responseFormat = options.responseFormat;
    if (options.purpose !== undefined) call.purpose = options.purpose;
    if (options.plannerView !== undefined) call.plannerView = options.plannerView;
    if (options.reasoningEffort !== undefined) call.reasoningEffort = options.reasoningEffort;
    if (options.model !== undefined) call.model = options.model;
    this.calls.push(call);
    return call;
  }

  private toResult(input: {
    content: string;
    settings: ScriptedReplyOptions;
    messages: readonly LlmMessage[];
  }): LlmResult {
    const { content, settings } = input;
    const result: LlmResult = { content, model: settings.model ?? this.model };
    if (settings.reasoning !== undefined) result.reasoning = settings.reasoning;
    if (settings.costUsd !== undefined) result.costUsd = settings.costUsd;
    if (settings.finishReason !== undefined) result.finishReason = settings.finishReason;
    if (settings.usage !== undefined) result.usage = settings.usage;
    else if (this.estimateUsage) {
      let promptChars = 0;
      for (const message of input.messages) promptChars += message.content.length;
      result.usage = {
        promptTokens: Math.ceil(promptChars / 4),
        completionTokens: Math.ceil(content.length / 4),
      };
    }
    return result;
  }
}

function isWrapped(value: unknown): value is ScriptedReplyWithOptions {
  return typeof value === "object" && value !== null && REPLY in value;
}

function stripContent(reply: ScriptedReplyWithOptions | { content: ScriptedContent }): ScriptedReplyOptions {
  if (!isWrapped(reply)) return {};
  const { content: _content, ...options } = reply;
  return options;
}

function streamReply(input: {
  content: string;
  settings: ScriptedReplyOptions;
  onChunk: NonNullable<LlmCompleteOptions["onChunk"]>;
  signal?: AbortSignal | undefined;
}): void {
  const size =
    input.settings.chunkSize !== undefined && input.settings.chunkSize > 0 ? input.settings.chunkSize : 0;
  const reasoning = input.settings.reasoning;
  if (reasoning !== undefined) {
    for (const piece of split(reasoning, size)) input.onChunk({ reasoning: piece });
  }
  for (const piece of split(input.content, size)) {
    input.signal?.throwIfAborted();
    input.onChunk({ content: piece });
  }
}

function split(text: string, size: number): string[] {
  if (size === 0 || text.length <= size) return text.length === 0 ? [] : [text];
  const pieces: string[] = [];
  for (let index = 0; index < text.length; index += size) pieces.push(text.slice(index, index + size));
  return pieces;
}

function abortableDelay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(signal.reason as Error);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
