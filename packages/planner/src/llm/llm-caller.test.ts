import type { RunEvent } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { Cancellation, TimeoutError } from "../util/cancellation.js";
import type { LlmClient, LlmCompleteOptions, LlmResult } from "./llm-client.js";
import { LlmCaller } from "./llm-caller.js";
import { RunEventEmitter } from "../run/run-event-emitter.js";
import { createRunState } from "../run/run-state.js";
import { ScriptedClient, scriptedReply } from "../testing/scripted-client.js";

function setup(
  llm: LlmClient,
  extra: { priceTable?: Record<string, { inputPerMTok: number; outputPerMTok: number }> } = {},
) {
  const state = createRunState({ runId: "r", query: "q", startedAt: 0 });
  const events: RunEvent[] = [];
  let now = 0;
  const caller = new LlmCaller({
    llm,
    cancellation: new Cancellation(),
    events: new RunEventEmitter({
      state,
      sink: (event) => events.push(event),
      clock: () => 0,
      secrets: new Set(["hush-hush-1"]),
      previewChars: 100,
    }),
    usage: state.usage,
    clock: () => (now += 5),
    responseFormat: "json_object",
    nextActionSeq: () => state.actionSeq++,
    secrets: new Set(["hush-hush-1"]),
    ...extra,
  });
  return { caller, events, state };
}
const messages = [{ role: "user" as const, content: "q" }];

describe("LlmCaller", () => {
  it("streams the answer and thinking channels, closes them, and records usage", async () => {
    const client = new ScriptedClient([
      scriptedReply('{"next_node": "final_response", "args": {"answer": "Hi hush-hush-1 there"}}', {
        chunkSize: 7,
        reasoning: "pondering",
        usage: { promptTokens: 10, completionTokens: 4, reasoningTokens: 2 },
        costUsd: 0.25,
      }),
    ]);
    const { caller, events, state } = setup(client);
    const output = await caller.call({
      messages,
      purpose: "plan",
      plannerView: { v: 1 },
      reasoningEffort: "low",
    });
    expect(output).toMatchObject({ actionSeq: 0, streamedFinish: true });
    const chunks = events
      .filter((event) => event.type === "llm_stream_chunk")
      .map((event) => event.data as { channel: string; text: string; done: boolean });
    expect(
      chunks
        .filter((chunk) => chunk.channel === "answer" && !chunk.done)
        .map((chunk) => chunk.text)
        .join(""),
    ).toBe("Hi [redacted] there");
    expect(chunks.filter((chunk) => chunk.done).map((chunk) => chunk.channel)).toEqual([
      "thinking",
      "answer",
    ]);
    expect(events.at(-1)).toMatchObject({
      type: "llm_call",
      data: {
        purpose: "plan",
        provider: "scripted",
        offline: false,
        promptTokens: 10,
        completionTokens: 4,
        reasoningTokens: 2,
        costUsd: 0.25,
        latencyMs: 5,
        reasoningEffort: "low",
      },
    });
    expect(state.usage).toEqual({
      promptTokens: 10,
      completionTokens: 4,
      reasoningTokens: 2,
      costUsd: 0.25,
      llmCalls: 1,
    });
    expect(client.calls[0]).toMatchObject({
      stream: true,
      responseFormat: "json_object",
      plannerView: { v: 1 },
      reasoningEffort: "low",
      purpose: "plan",
    });
  });

  it("shows a non-streaming client's answer and reasoning as one chunk each, and prices usage", async () => {
    const client: LlmClient = {
      provider: "plain",
      model: "priced-model",
      complete: async (): Promise<LlmResult> => ({
        content: '{"next_node": "final_response", "args": {"answer": "Whole"}}',
        reasoning: "why",
        usage: { promptTokens: 1_000_000, completionTokens: 0 },
      }),
    };
    const { caller, events, state } = setup(client, {
      priceTable: { "priced-model": { inputPerMTok: 2, outputPerMTok: 8 } },
    });
    await caller.call({ messages, purpose: "plan" });
    const texts = events
      .filter((event) => event.type === "llm_stream_chunk")
      .map((event) => (event.data as { text: string }).text);
    expect(texts).toEqual(["why", "Whole", "", ""]);
    expect(state.usage.costUsd).toBe(2);
  });

  it("does not stream tool calls or arg-fill replies", async () => {
    const { caller, events } = setup(
      new ScriptedClient(['{"next_node": "search", "args": {"answer": "no"}}', '{"answer": "no"}']),
    );
    await caller.call({ messages, purpose: "plan" });
    await caller.call({ messages, purpose: "arg_fill", streamAnswer: false });
    expect(events.filter((event) => event.type === "llm_stream_chunk")).toEqual([]);
  });

  it("gives up at the timeout, aborting the client's signal, and closes open channels on errors", async () => {
    let signal: AbortSignal | undefined;
    const hanging: LlmClient = {
      provider: "p",
      model: "m",
      complete: (options: LlmCompleteOptions) => {
        signal = options.signal;
        options.onChunk?.({ reasoning: "thinking…" });
        return new Promise(() => undefined);
      },
    };
    const { caller, events } = setup(hanging);
    await expect(caller.call({ messages, purpose: "plan", timeoutMs: 5 })).rejects.toBeInstanceOf(
      TimeoutError,
    );
    expect(signal?.aborted).toBe(true);
    expect(events.at(-1)).toMatchObject({
      type: "llm_stream_chunk",
      data: { channel: "thinking", done: true },
    });
  });

  it("begin, then finish or abort: a client that throws at once rejects the reply; abort after finish is a no-op", async () => {
    const throwing: LlmClient = {
      provider: "p",
      model: "m",
      complete: () => {
        throw new Error("no connection");
      },
    };
    const failed = setup(throwing);
    const pending = failed.caller.begin({ messages, purpose: "plan" });
    await expect(pending.reply).rejects.toThrow("no connection");
    failed.caller.abort(pending);
    expect(failed.events).toEqual([]);

    const answered = setup(
      new ScriptedClient([
        scriptedReply('{"next_node": "final_response", "args": {"answer": "Hi"}}', { reasoning: "hm" }),
      ]),
    );
    const call = answered.caller.begin({ messages, purpose: "plan" });
    const output = answered.caller.finish(call, await call.reply);
    expect(output).toMatchObject({ actionSeq: 0, streamedFinish: true });
    const count = answered.events.length;
    answered.caller.abort(call);
    expect(answered.events).toHaveLength(count);
    expect(answered.events.map((event) => event.type).at(-1)).toBe("llm_call");
  });
});
