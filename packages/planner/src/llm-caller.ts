import type { LlmPrice, ResponseFormat } from "@waddle/protocol";
import { AnswerStreamExtractor } from "./answer-stream-extractor.js";
import type { Cancellation } from "./cancellation.js";
import { StreamRedactor } from "./stream-redactor.js";
import type { LlmChunk, LlmClient, LlmCompleteOptions, LlmMessage, LlmResult } from "./llm-client.js";
import { computeCostUsd, getModelPrice, type PriceTable } from "./price-table.js";
import type { RunEventEmitter } from "./run-event-emitter.js";
import type { RunUsage } from "./run-state.js";

const NO_SECRETS: ReadonlySet<string> = new Set();

export type LlmPurpose = NonNullable<LlmCompleteOptions["purpose"]>;

export interface LlmCallerOptions {
  llm: LlmClient;
  cancellation: Cancellation;
  events: RunEventEmitter;
  usage: RunUsage;
  clock: () => number;
  responseFormat?: ResponseFormat;
  priceTable?: PriceTable;
  /** Next `action_seq` value; the caller keeps it in the run state. */
  nextActionSeq: () => number;
  /** toolContext strings: scrubbed from streamed text too. */
  secrets?: ReadonlySet<string>;
}

export interface LlmCallInput {
  messages: readonly LlmMessage[];
  purpose: LlmPurpose;
  /** Gives up with `TimeoutError` after this long (the run's deadline); the client's signal aborts too. */
  timeoutMs?: number;
  plannerView?: unknown;
  reasoningEffort?: "low" | "medium" | "high";
  model?: string;
  /** False for calls whose reply is not an action (arg-fill): no answer streaming. */
  streamAnswer?: boolean;
}

export interface LlmCallOutput {
  result: LlmResult;
  actionSeq: number;
  /** The extractor's verdict on the reply: a terminal action was streamed. */
  streamedFinish: boolean;
}

/**
 * One planner LLM call: requests streaming, feeds content deltas through `AnswerStreamExtractor` into
 * `llm_stream_chunk` answer events and reasoning deltas into thinking events (each channel closed with a
 * `done: true` chunk), then emits `llm_call` with usage, cost and latency, and adds them to the run's
 * usage. Waiting stops as soon as the signal aborts, even if the client ignores it.
 */
export class LlmCaller {
  private readonly prices = new Map<string, LlmPrice | undefined>();

  constructor(private readonly options: LlmCallerOptions) {}

  async call(input: LlmCallInput): Promise<LlmCallOutput> {
    const { llm, events, clock } = this.options;
    const actionSeq = this.options.nextActionSeq();
    const extractor = input.streamAnswer === false ? undefined : new AnswerStreamExtractor();
    let sawContent = false;
    let thinking = false;
    let answering = false;
    const secrets = this.options.secrets ?? NO_SECRETS;
    // Redactors only when there is something to hide: most runs pass text straight through.
    const redactors =
      secrets.size === 0
        ? undefined
        : { answer: new StreamRedactor(secrets), thinking: new StreamRedactor(secrets) };
    const emitChunk = (channel: "answer" | "thinking", text: string, done: boolean): void => {
      const redactor = redactors?.[channel];
      const shown =
        redactor === undefined ? (done ? "" : text) : done ? redactor.flush() : redactor.push(text);
      // Text held back as a possible secret's beginning goes out with the closing chunk.
      if (done && shown.length > 0)
        events.emit("llm_stream_chunk", {
          text: shown,
          done: false,
          phase: channel,
          channel,
          action_seq: actionSeq,
        });
      if (done || shown.length > 0) {
        events.emit("llm_stream_chunk", {
          text: done ? "" : shown,
          done,
          phase: channel,
          channel,
          action_seq: actionSeq,
        });
      }
    };
    const onChunk = (chunk: LlmChunk): void => {
      if (chunk.reasoning !== undefined && chunk.reasoning.length > 0) {
        thinking = true;
        emitChunk("thinking", chunk.reasoning, false);
      }
      if (chunk.content !== undefined && chunk.content.length > 0) {
        sawContent = true;
        const text = extractor?.feed(chunk.content) ?? "";
        if (text.length > 0) {
          answering = true;
          emitChunk("answer", text, false);
        }
      }
    };
    const { cancellation } = this.options;
    // A child signal only when a deadline needs one: creating AbortControllers is costly per step.
    const deadline = input.timeoutMs === undefined ? undefined : new AbortController();
    const request: LlmCompleteOptions = {
      messages: input.messages,
      stream: true,
      onChunk,
      signal: deadline?.signal ?? cancellation.signal,
      purpose: input.purpose,
    };
    if (this.options.responseFormat !== undefined && this.options.responseFormat !== "none") {
      request.responseFormat = this.options.responseFormat;
    }
    if (input.plannerView !== undefined) request.plannerView = input.plannerView;
    if (input.reasoningEffort !== undefined) request.reasoningEffort = input.reasoningEffort;
    if (input.model !== undefined) request.model = input.model;
    const started = clock();
    let result: LlmResult;
    try {
      result = await cancellation.race(llm.complete(request), {
        ...(input.timeoutMs === undefined ? {} : { timeoutMs: input.timeoutMs }),
        onAbort: (reason) => deadline?.abort(reason),
      });
    } catch (error) {
      // A reply cut off mid-stream: close the channels it opened before the loop decides what to do.
      if (thinking) emitChunk("thinking", "", true);
      if (answering) emitChunk("answer", "", true);
      throw error;
    }
    const latencyMs = Math.max(0, clock() - started);
    // A client that did not stream still shows its reasoning and answer, as one chunk each.
    if (!thinking && result.reasoning !== undefined && result.reasoning.length > 0)
      onChunk({ reasoning: result.reasoning });
    if (!sawContent && result.content.length > 0) onChunk({ content: result.content });
    const tail = extractor?.end() ?? "";
    if (tail.length > 0) {
      answering = true;
      emitChunk("answer", tail, false);
    }
    if (thinking) emitChunk("thinking", "", true);
    if (answering || extractor?.isFinishAction === true) emitChunk("answer", "", true);
    this.record({ result, latencyMs, purpose: input.purpose, reasoningEffort: input.reasoningEffort });
    return { result, actionSeq, streamedFinish: extractor?.isFinishAction === true };
  }

  private record(input: {
    result: LlmResult;
    latencyMs: number;
    purpose: LlmPurpose;
    reasoningEffort: string | undefined;
  }): void {
    const { llm, usage, events } = this.options;
    const reported = input.result.usage;
    const promptTokens = reported?.promptTokens ?? 0;
    const completionTokens = reported?.completionTokens ?? 0;
    const reasoningTokens = reported?.reasoningTokens ?? 0;
    const costUsd = input.result.costUsd ?? this.priceOf(input.result);
    usage.promptTokens += promptTokens;
    usage.completionTokens += completionTokens;
    usage.reasoningTokens += reasoningTokens;
    usage.costUsd += costUsd;
    usage.llmCalls += 1;
    if (!events.enabled) return events.skip();
    const data = {
      purpose: input.purpose,
      provider: llm.provider,
      model: input.result.model ?? llm.model,
      offline: llm.offline === true,
      promptTokens,
      completionTokens,
      reasoningTokens,
      costUsd,
      latencyMs: input.latencyMs,
    };
    events.emit(
      "llm_call",
      input.reasoningEffort === undefined ? data : { ...data, reasoningEffort: input.reasoningEffort },
    );
  }

  /** Usage × the price table, when the client reported no cost and the model's price is known. */
  private priceOf(result: LlmResult): number {
    if (result.usage === undefined) return 0;
    const model = result.model ?? this.options.llm.model;
    if (!this.prices.has(model)) this.prices.set(model, getModelPrice(model, this.options.priceTable));
    const price = this.prices.get(model);
    return price === undefined ? 0 : computeCostUsd(result.usage, price);
  }
}
