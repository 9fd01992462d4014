import type { RunEvent } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { applyRunEvents, createRunView } from "./apply-run-event.js";

const base = { runId: "fork-1", ts: 1 };
const events: RunEvent[] = [
  {
    ...base,
    seq: 1,
    step: 0,
    type: "run_started",
    data: { query: "q", llm: { provider: "p", model: "m", offline: false }, tools: ["a", "b"] },
    replayed: true,
  },
  {
    ...base,
    seq: 2,
    step: 0,
    type: "tool_start",
    data: { tool: "a", callId: "c1", args: {}, attempt: 1 },
    replayed: true,
  },
  {
    ...base,
    seq: 3,
    step: 0,
    type: "tool_end",
    data: { tool: "a", callId: "c1", observation: {}, durationMs: 1 },
    replayed: true,
  },
  {
    ...base,
    seq: 4,
    step: 1,
    type: "llm_call",
    data: {
      purpose: "plan",
      provider: "p",
      model: "m",
      offline: false,
      promptTokens: 0,
      completionTokens: 0,
      reasoningTokens: 0,
      costUsd: 0,
      latencyMs: 0,
    },
    cached: true,
  },
  { ...base, seq: 5, step: 1, type: "tool_start", data: { tool: "b", callId: "c2", args: {}, attempt: 1 } },
  {
    ...base,
    seq: 6,
    step: 1,
    type: "tool_end",
    data: { tool: "b", callId: "c2", observation: {}, durationMs: 0, edited: true },
  },
];

describe("a fork's events in the run view", () => {
  it("flags the copied prefix, cached calls and edited values on timeline entries and nodes", () => {
    const view = applyRunEvents(createRunView("fork-1"), events);
    const bySeq = new Map(view.timeline.map((entry) => [entry.seq, entry]));
    expect(bySeq.get(1)?.replayed).toBe(true);
    expect(bySeq.get(3)?.replayed).toBe(true);
    expect(bySeq.get(4)).toMatchObject({ cached: true });
    expect(bySeq.get(4)?.replayed).toBeUndefined();
    expect(bySeq.get(6)).toMatchObject({ edited: true });
    expect(view.nodes.a?.replayed).toBe(true);
    expect(view.nodes.b?.replayed).toBeFalsy();
  });

  it("flags a node whose latest call the fork reused (cached) or a person wrote (edited)", () => {
    const cached: RunEvent[] = [
      {
        ...base,
        seq: 7,
        step: 2,
        type: "tool_start",
        data: { tool: "a", callId: "c3", args: {}, attempt: 1 },
        cached: true,
      },
      {
        ...base,
        seq: 8,
        step: 2,
        type: "tool_end",
        data: { tool: "a", callId: "c3", observation: {}, durationMs: 0 },
        cached: true,
      },
    ];
    const edited: RunEvent = {
      ...base,
      seq: 5,
      step: 1,
      type: "tool_start",
      data: { tool: "b", callId: "c2", args: {}, attempt: 1, edited: true },
    };
    const view = applyRunEvents(createRunView("fork-1"), [
      ...events.slice(0, 4),
      edited,
      events[5]!,
      ...cached,
    ]);
    expect(view.nodes.a).toMatchObject({ cached: true, replayed: false });
    expect(view.nodes.b).toMatchObject({ edited: true });
    expect(view.nodes.b?.cached).toBeFalsy();
    // a later call of the tool that ran live clears the flag
    const live: RunEvent = {
      ...base,
      seq: 9,
      step: 3,
      type: "tool_start",
      data: { tool: "a", callId: "c4", args: {}, attempt: 1 },
    };
    expect(applyRunEvents(view, [live]).nodes.a?.cached).toBe(false);
  });
});
