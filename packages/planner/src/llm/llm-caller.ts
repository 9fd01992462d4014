import type { LlmPrice, ResponseFormat, RunEventData } from "@waddle/protocol";
import type { Cancellation } from "../util/cancellation.js";
import { LlmStreamSession } from "./llm-stream-session.js";
import type { LlmClient, LlmCompleteOptions, LlmMessage, LlmResult, LlmUsage } from "./llm-client.js";
import { computeCostUsd, getModelPrice, type PriceTable } from "./price-table.js";
import type { RunEventEmitter } from "../run/run-event-emitter.js";
import type { RunUsage } from "../run/run-state.js";
import type { ToolUsageReport } from "../catalog/tool-usage-report.js";

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
  /** True when output guards or an answer schema check the answer: no answer text streams before it passes. */
  holdAnswer?: boolean;
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

/** A call started by `LlmCaller.begin`, waiting for its `reply`. */
export interface LlmCallInFlight {
  readonly reply: Promise<LlmResult>;
  readonly session: LlmStreamSession;
  readonly actionSeq: number;
  readonly started: number;
  readonly purpose: LlmPurpose;
  readonly reasoningEffort: LlmCallInput["reasoningEffort"];
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

  /** Makes the call and waits for it (see `begin`). */
  async call(input: LlmCallInput): Promise<LlmCallOutput> {
    const call = this.begin(input);
    let result: LlmResult;
    try {
      result = await call.reply;
    } catch (error) {
      this.abort(call);
      throw error;
    }
    return this.finish(call, result);
  }

  /**
   * Starts the call: `reply` settles with the client's result (or rejects when the run aborts or the
   * timeout passes); then `finish(call, result)` or `abort(call)`. For the action planner, which awaits
   * the reply itself: an async frame and an await less per step than `call`.
   */
  begin(input: LlmCallInput): LlmCallInFlight {
    const { llm, cancellation } = this.options;
    const actionSeq = this.options.nextActionSeq();
    const session = new LlmStreamSession(this.options.events, actionSeq, {
      streamAnswer: input.streamAnswer !== false && this.options.holdAnswer !== true,
      secrets: this.options.secrets ?? NO_SECRETS,
    });
    // A child signal only when a deadline needs one: creating AbortControllers is costly per step.
    const deadline = input.timeoutMs === undefined ? undefined : new AbortController();
    const request: LlmCompleteOptions = {
      messages: input.messages,
      stream: true,
      onChunk: session.onChunk,
      signal: deadline?.signal ?? cancellation.signal,
      purpose: input.purpose,
    };
    if (this.options.responseFormat !== undefined && this.options.responseFormat !== "none") {
      request.responseFormat = this.options.responseFormat;
    }
    if (input.plannerView !== undefined) request.plannerView = input.plannerView;
    if (input.reasoningEffort !== undefined) request.reasoningEffort = input.reasoningEffort;
    if (input.model !== undefined) request.model = input.model;
    const started = this.options.clock();
    let reply: Promise<LlmResult>;
    try {
      reply = llm.complete(request);
    } catch (error) {
      reply = Promise.reject(error as Error);
    }
    return {
      reply:
        deadline === undefined
          ? cancellation.race(reply)
          : cancellation.race(reply, {
              timeoutMs: input.timeoutMs,
              onAbort: (reason) => deadline.abort(reason),
            }),
      session,
      actionSeq,
      started,
      purpose: input.purpose,
      reasoningEffort: input.reasoningEffort,
    };
  }

  /** After the reply: shows and closes the stream channels, counts usage and cost, emits `llm_call`. */
  finish(call: LlmCallInFlight, result: LlmResult): LlmCallOutput {
    const now = this.options.clock();
    const latencyMs = Math.max(0, now - call.started);
    call.session.complete(result);
    const { purpose, reasoningEffort } = call;
    this.record({ result, latencyMs, purpose, reasoningEffort, ts: now });
    return { result, actionSeq: call.actionSeq, streamedFinish: call.session.streamedFinish };
  }

  /** After a failed call (e.g. a stream cut off): closes the channels it opened. */
  abort(call: LlmCallInFlight): void {
    call.session.abort();
  }

  /**
   * Counts a call made outside `call` (the router, the summarizer): usage, cost and `llm_call`, with the
   * client that answered.
   */
  recordCall(input: { llm: LlmClient; result: LlmResult; latencyMs: number; purpose: LlmPurpose }): void {
    this.record({ ...input, reasoningEffort: undefined });
  }

  /** A subagent's call (background task): counted in this run's usage, shown as `purpose: "subagent"`. */
  recordSubagentCall(data: RunEventData<"llm_call">): void {
    const { usage, events } = this.options;
    usage.promptTokens += data.promptTokens;
    usage.completionTokens += data.completionTokens;
    usage.reasoningTokens += data.reasoningTokens;
    usage.costUsd += data.costUsd;
    usage.llmCalls += 1;
    if (!events.enabled) return events.skip();
    events.emit("llm_call", { ...data, purpose: "subagent" });
  }

  /**
   * Model usage a tool reported (`ctx.reportUsage`): added to the run's usage and cost (usage × the price
   * table when the tool gave no cost) and emitted as `llm_call` with the report's purpose, at its step.
   */
  recordToolUsage(report: ToolUsageReport, step: number): void {
    const { usage, events } = this.options;
    const reasoningTokens = report.reasoningTokens ?? 0;
    const costUsd =
      report.costUsd ??
      this.priceOfModel(report.model, {
        promptTokens: report.promptTokens,
        completionTokens: report.completionTokens,
        reasoningTokens,
      });
    usage.promptTokens += report.promptTokens;
    usage.completionTokens += report.completionTokens;
    usage.reasoningTokens += reasoningTokens;
    usage.costUsd += costUsd;
    usage.llmCalls += 1;
    if (!events.enabled) return events.skip();
    const data: RunEventData<"llm_call"> = {
      purpose: report.purpose,
      provider: report.provider,
      model: report.model,
      offline: report.offline === true,
      promptTokens: report.promptTokens,
      completionTokens: report.completionTokens,
      reasoningTokens,
      costUsd,
      latencyMs: report.latencyMs ?? 0,
    };
    if (report.finishReason !== undefined) data.finishReason = report.finishReason;
    events.emit("llm_call", data, step);
  }

  private record(input: {
    result: LlmResult;
    latencyMs: number;
    purpose: LlmPurpose;
    reasoningEffort: string | undefined;
    llm?: LlmClient;
    /** When the reply arrived, if the caller has just read the clock. */
    ts?: number;
  }): void {
    const { usage, events } = this.options;
    const llm = input.llm ?? this.options.llm;
    const reported = input.result.usage;
    const promptTokens = reported?.promptTokens ?? 0;
    const completionTokens = reported?.completionTokens ?? 0;
    const reasoningTokens = reported?.reasoningTokens ?? 0;
    const costUsd = input.result.costUsd ?? this.priceOf(input.result, llm);
    usage.promptTokens += promptTokens;
    usage.completionTokens += completionTokens;
    usage.reasoningTokens += reasoningTokens;
    usage.costUsd += costUsd;
    usage.llmCalls += 1;
    if (!events.enabled) return events.skip();
    const data: RunEventData<"llm_call"> = {
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
    if (input.reasoningEffort !== undefined) data.reasoningEffort = input.reasoningEffort;
    // What was asked for and why the reply ended, when they differ from the above or are known (traces).
    if (input.result.model !== undefined && input.result.model !== llm.model) data.requestModel = llm.model;
    if (input.result.finishReason !== undefined) data.finishReason = input.result.finishReason;
    // A person's reply in place of the model's (a fork's `llm_reply` edit) says so.
    if (input.result.edited === true) data.edited = true;
    events.emitAt("llm_call", data, {
      ts: input.ts ?? this.options.clock(),
      ...(input.result.cached === true ? { cached: true } : {}),
    });
  }

  /** Usage × the price table, when the client reported no cost and the model's price is known. */
  private priceOf(result: LlmResult, llm: LlmClient): number {
    if (result.usage === undefined) return 0;
    return this.priceOfModel(result.model ?? llm.model, result.usage);
  }

  private priceOfModel(model: string, usage: LlmUsage): number {
    if (!this.prices.has(model)) this.prices.set(model, getModelPrice(model, this.options.priceTable));
    const price = this.prices.get(model);
    return price === undefined ? 0 : computeCostUsd(usage, price);
  }
}
