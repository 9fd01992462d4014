import type { RunEvent } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { ChatDeltaTracker } from "./chat-delta-tracker.js";

let seq = 0;
const chunk = (channel: "answer" | "thinking", text: string, call: number, done = false): RunEvent => ({
  runId: "run_test",
  seq: ++seq,
  ts: 0,
  step: 0,
  type: "llm_stream_chunk",
  data: { text, done, phase: channel, channel, action_seq: call },
});

describe("ChatDeltaTracker", () => {
  it("maps the answer channel to content and thinking to reasoning_content, calls set apart", () => {
    const tracker = new ChatDeltaTracker();
    expect(tracker.onEvent(chunk("thinking", "First.", 0))).toEqual({ reasoning_content: "First." });
    expect(tracker.onEvent(chunk("thinking", "", 0, true))).toBeUndefined();
    expect(tracker.onEvent(chunk("thinking", "Second.", 1))).toEqual({ reasoning_content: "\n\nSecond." });
    expect(tracker.onEvent(chunk("answer", "Hel", 1))).toEqual({ content: "Hel" });
    expect(tracker.onEvent(chunk("answer", "lo", 1))).toEqual({ content: "lo" });
    expect(tracker.reasoning).toBe("First.\n\nSecond.");
    expect(tracker.finish("Hello")).toBeUndefined();
    expect(tracker.content).toBe("Hello");
  });

  it("sends the whole answer when nothing streamed, and the tail the stream left out", () => {
    expect(new ChatDeltaTracker().finish("All of it")).toEqual({ content: "All of it" });
    const tracker = new ChatDeltaTracker();
    tracker.onEvent(chunk("answer", "Half", 0));
    expect(tracker.finish("Half and the rest")).toEqual({ content: " and the rest" });
  });

  it("ends with the kept answer when the run streamed one it did not keep", () => {
    const tracker = new ChatDeltaTracker();
    tracker.onEvent(chunk("answer", "Draft", 0));
    expect(tracker.onEvent(chunk("answer", "Final", 1))).toEqual({ content: "\n\nFinal" });
    expect(tracker.finish("Final")).toBeUndefined();
    expect(tracker.finish("Something else")).toEqual({ content: "\n\nSomething else" });
  });
});
