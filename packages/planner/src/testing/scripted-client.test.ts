import { describe, expect, it } from "vitest";
import type { LlmChunk, LlmMessage } from "../llm/llm-client.js";
import { PlannerError } from "../errors/planner-error.js";
import { ScriptedClient, scriptedReply } from "./scripted-client.js";

const messages = [{ role: "user" as const, content: "hello there" }];

describe("ScriptedClient", () => {
  it("answers strings as given and objects as JSON, in order", async () => {
    const client = new ScriptedClient(["plain", { next_node: "final_response", args: { answer: "hi" } }]);
    expect((await client.complete({ messages })).content).toBe("plain");
    const second = await client.complete({ messages });
    expect(JSON.parse(second.content)).toEqual({ next_node: "final_response", args: { answer: "hi" } });
    expect(client.remaining).toBe(0);
  });

  it("records every call with a copy of its messages", async () => {
    const client = new ScriptedClient(["a", "b"]);
    const live: LlmMessage[] = [...messages];
    await client.complete({
      messages: live,
      purpose: "plan",
      plannerView: { iteration: 0 },
      reasoningEffort: "low",
    });
    live.push({ role: "assistant", content: "later" });
    await client.complete({ messages: live, responseFormat: "json_object", purpose: "repair" });
    expect(client.calls[0]).toMatchObject({
      index: 0,
      purpose: "plan",
      plannerView: { iteration: 0 },
      reasoningEffort: "low",
      stream: false,
    });
    expect(client.calls[0]?.messages).toHaveLength(1);
    expect(client.calls[1]).toMatchObject({ responseFormat: "json_object", purpose: "repair" });
    expect(client.calls[1]?.messages).toHaveLength(2);
  });

  it("computes replies from the call and throws scripted errors", async () => {
    const client = new ScriptedClient([
      (call) => ({ seen: call.messages.length }),
      new Error("provider down"),
    ]);
    expect(JSON.parse((await client.complete({ messages })).content)).toEqual({ seen: 1 });
    await expect(client.complete({ messages })).rejects.toThrow("provider down");
  });

  it("says clearly when the script runs out", async () => {
    const client = new ScriptedClient([]);
    const error = await client.complete({ messages, purpose: "plan" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PlannerError);
    expect((error as PlannerError).code).toBe("script_exhausted");
    expect((error as PlannerError).message).toMatch(/add a reply/);
  });

  it("streams reasoning then content in chunks when asked", async () => {
    const client = new ScriptedClient([scriptedReply("abcdefg", { chunkSize: 3, reasoning: "why" })]);
    const chunks: LlmChunk[] = [];
    const result = await client.complete({ messages, stream: true, onChunk: (chunk) => chunks.push(chunk) });
    expect(chunks).toEqual([{ reasoning: "why" }, { content: "abc" }, { content: "def" }, { content: "g" }]);
    expect(result).toMatchObject({ content: "abcdefg", reasoning: "why" });
  });

  it("does not call onChunk unless streaming was requested", async () => {
    const client = new ScriptedClient([scriptedReply("abc", { chunkSize: 1 })]);
    const chunks: LlmChunk[] = [];
    await client.complete({ messages, onChunk: (chunk) => chunks.push(chunk) });
    expect(chunks).toEqual([]);
  });

  it("aborts a delayed reply when the signal fires", async () => {
    const client = new ScriptedClient([scriptedReply("late", { delayMs: 10_000 })]);
    const controller = new AbortController();
    const pending = client.complete({ messages, signal: controller.signal });
    controller.abort(new Error("stop"));
    await expect(pending).rejects.toThrow("stop");
  });

  it("reports estimated usage unless told otherwise, and given usage and cost as is", async () => {
    const client = new ScriptedClient([
      "12345678",
      scriptedReply("x", { usage: { promptTokens: 7, completionTokens: 1 }, costUsd: 0.5 }),
    ]);
    expect((await client.complete({ messages })).usage).toEqual({ promptTokens: 3, completionTokens: 2 });
    expect(await client.complete({ messages })).toMatchObject({
      usage: { promptTokens: 7, completionTokens: 1 },
      costUsd: 0.5,
    });
    const silent = new ScriptedClient(["x"], { estimateUsage: false, provider: "p", model: "m" });
    const result = await silent.complete({ messages });
    expect(result.usage).toBeUndefined();
    expect([silent.provider, silent.model, result.model]).toEqual(["p", "m", "m"]);
  });
});
