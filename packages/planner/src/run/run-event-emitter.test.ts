import { RunEvent } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { RunEventEmitter } from "./run-event-emitter.js";
import { createRunState } from "./run-state.js";

describe("RunEventEmitter", () => {
  it("wraps events in the envelope with contiguous seq, clock ts and the current step", () => {
    const state = createRunState({ runId: "r1", query: "q", startedAt: 0 });
    const events: RunEvent[] = [];
    let now = 100;
    const emitter = new RunEventEmitter({
      state,
      sink: (event) => events.push(event),
      clock: () => (now += 1),
      secrets: new Set(),
      previewChars: 50,
    });
    emitter.emit("step_start", { source: "llm" });
    emitter.skip();
    emitter.emit("reasoning", { phase: "act", summary: "x" }, 4);
    expect(events.map((event) => [event.seq, event.ts, event.step, event.type])).toEqual([
      [1, 101, 0, "step_start"],
      [3, 102, 4, "reasoning"],
    ]);
    expect(state.seq).toBe(3);
    for (const event of events) expect(RunEvent.safeParse(event).success).toBe(true);
  });

  it("previews with redaction, and builds nothing without a sink", () => {
    const state = createRunState({ runId: "r1", query: "q", startedAt: 0 });
    const loud = new RunEventEmitter({
      state,
      sink: () => undefined,
      clock: () => 0,
      secrets: new Set(["secret-value"]),
      previewChars: 60,
    });
    expect(loud.preview({ key: "secret-value", text: "y".repeat(100) })).toEqual({
      key: "[redacted]",
      text: expect.stringMatching(/…\[\+\d+ chars\]$/),
    });
    const quiet = new RunEventEmitter({
      state,
      sink: undefined,
      clock: () => 0,
      secrets: new Set(),
      previewChars: 20,
    });
    expect(quiet.enabled).toBe(false);
    expect(quiet.preview({ a: 1 })).toBeUndefined();
    quiet.emit("step_start", { source: "llm" });
    expect(state.seq).toBe(1);
  });

  it("ignores a listener that throws", () => {
    const state = createRunState({ runId: "r1", query: "q", startedAt: 0 });
    const emitter = new RunEventEmitter({
      state,
      sink: () => {
        throw new Error("socket closed");
      },
      clock: () => 0,
      secrets: new Set(),
      previewChars: 20,
    });
    expect(() => emitter.emit("step_start", { source: "llm" })).not.toThrow();
  });
});
