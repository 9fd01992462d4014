import { describe, expect, it } from "vitest";
import { createFallbackPayload, createFinalPayload, getLastResultDigest } from "./final-payload.js";
import type { TrajectoryStep } from "./run-state.js";

const step = (overrides: Partial<TrajectoryStep>): TrajectoryStep => ({
  index: 0,
  next_node: "t",
  args: {},
  source: "llm",
  startedAt: 0,
  durationMs: 0,
  ...overrides,
});

describe("createFinalPayload", () => {
  it("fills defaults and keeps optional fields", () => {
    expect(
      createFinalPayload({ answer: "hi", confidence: 0.4, language: "en", sources: [{ id: 1 }] }),
    ).toEqual({
      answer: "hi",
      artifacts: {},
      sources: [{ id: 1 }],
      suggested_actions: [],
      confidence: 0.4,
      language: "en",
      requires_followup: false,
    });
    expect(createFinalPayload({ raw_answer: "legacy" }).answer).toBe("legacy");
    expect(createFinalPayload({ answer: "  " }, "fallback").answer).toBe("fallback");
  });

  it("keeps answer over a different raw_answer (PenguiFlow), with raw_answer beside it under extra", () => {
    expect(createFinalPayload({ answer: "A", raw_answer: "B" })).toMatchObject({
      answer: "A",
      extra: { raw_answer: "B" },
    });
    expect(createFinalPayload({ answer: " ", raw_answer: "B" }).answer).toBe("B");
    expect(createFinalPayload({ answer: "Same", raw_answer: "Same" }).extra).toBeUndefined();
    expect(createFinalPayload({ answer: "A", extra: { answer: "B" }, mood: "ok" }).extra).toEqual({
      answer: "B",
      mood: "ok",
    });
  });
});

describe("createFallbackPayload", () => {
  it("says why and shows the latest successful observation", () => {
    const steps = [
      step({ observation: { docs: ["a"] } }),
      step({ failure: { node: "t", args: {}, error_code: "x", message: "m" } }),
    ];
    expect(createFallbackPayload({ message: "Out of time.", steps })).toMatchObject({
      answer: 'Out of time.\n\nLatest result: {"docs":["a"]}',
      requires_followup: true,
    });
    expect(
      createFallbackPayload({ message: "Cancelled.", steps: [], requiresFollowup: false }),
    ).toMatchObject({
      answer: "Cancelled.",
      requires_followup: false,
    });
    expect(getLastResultDigest([step({ observation: "x".repeat(700) })])).toMatch(/…\[\+100 chars\]$/);
  });
});
