import type { RunEvent } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { LlmStreamSession } from "./llm-stream-session.js";
import { RunEventEmitter } from "../run/run-event-emitter.js";
import { createRunState } from "../run/run-state.js";

function session(options: { streamAnswer?: boolean; secrets?: string[] } = {}) {
  const events: RunEvent[] = [];
  const state = createRunState({ runId: "r", query: "q", startedAt: 0 });
  const emitter = new RunEventEmitter({
    state,
    sink: (event) => events.push(event),
    clock: () => 0,
    secrets: new Set(),
    previewChars: 100,
  });
  const stream = new LlmStreamSession(emitter, 7, {
    streamAnswer: options.streamAnswer ?? true,
    secrets: new Set(options.secrets ?? []),
  });
  const chunks = () =>
    events.map((event) => event.data as { channel: string; text: string; done: boolean; action_seq: number });
  return { stream, chunks };
}

describe("LlmStreamSession", () => {
  it("emits answer and thinking deltas and closes both channels", () => {
    const { stream, chunks } = session();
    stream.onChunk({ reasoning: "hmm" });
    stream.onChunk({ content: '{"next_node": "final_response", "args": {"answer": "Yes' });
    stream.onChunk({ content: '!"}}' });
    stream.complete({ content: "ignored: already streamed" });
    expect(chunks().map((chunk) => [chunk.channel, chunk.text, chunk.done])).toEqual([
      ["thinking", "hmm", false],
      ["answer", "Yes", false],
      ["answer", "!", false],
      ["thinking", "", true],
      ["answer", "", true],
    ]);
    expect(chunks().every((chunk) => chunk.action_seq === 7)).toBe(true);
    expect(stream.streamedFinish).toBe(true);
  });

  it("redacts a secret split across deltas, releasing held text before the closing chunk", () => {
    const { stream, chunks } = session({ secrets: ["topsecret"] });
    stream.onChunk({ content: '{"next_node": "final_response", "args": {"answer": "a top' });
    stream.onChunk({ content: 'secret b to"}}' });
    stream.complete({ content: "" });
    const text = chunks()
      .filter((chunk) => !chunk.done)
      .map((chunk) => chunk.text)
      .join("");
    expect(text).toBe("a [redacted] b to");
    expect(chunks().at(-1)).toMatchObject({ text: "", done: true });
  });

  it("closes only the channels that were opened when the call fails", () => {
    const { stream, chunks } = session();
    stream.onChunk({ reasoning: "partial" });
    stream.abort();
    expect(chunks().map((chunk) => [chunk.channel, chunk.done])).toEqual([
      ["thinking", false],
      ["thinking", true],
    ]);
  });

  it("emits nothing for a tool call or when answer streaming is off", () => {
    const tool = session();
    tool.stream.complete({ content: '{"next_node": "search", "args": {"answer": "x"}}' });
    expect(tool.chunks()).toEqual([]);
    const nullArgs = session();
    nullArgs.stream.complete({ content: '{"next_node": "search", "args": {"query": null}}' });
    expect(nullArgs.chunks()).toEqual([]);
    expect(nullArgs.stream.streamedFinish).toBe(false);
    const off = session({ streamAnswer: false });
    off.stream.complete({ content: '{"next_node": "final_response", "args": {"answer": "x"}}' });
    expect(off.chunks()).toEqual([]);
  });

  it("shows the answer of a reply that came whole, however its terminal next_node is spelled", () => {
    const replies = [
      '{"next_node": "final_response", "args": {"answer": "Hi"}}',
      '{"thought": "done", "next_node": null, "args": {"answer": "Hi"}}',
      '{"next_node": "final\\u005fresponse", "args": {"answer": "Hi"}}',
    ];
    for (const content of replies) {
      const { stream, chunks } = session();
      stream.complete({ content });
      expect(chunks().map((chunk) => [chunk.text, chunk.done])).toEqual([
        ["Hi", false],
        ["", true],
      ]);
      expect(stream.streamedFinish).toBe(true);
    }
  });
});
