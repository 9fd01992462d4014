import { describe, expect, it } from "vitest";
import type { StepView, TimelineEntry } from "../../runs/fold/run-view.js";
import { getStepSummary, getTimelineRows } from "./get-timeline-rows.js";

const entry = (seq: number, step: number): TimelineEntry => ({
  seq,
  step,
  ts: seq,
  kind: "plan",
  title: `e${seq}`,
});
const step: StepView = {
  step: 0,
  startSeq: 1,
  startTs: 1000,
  endTs: 2200,
  llmCalls: 1,
  tokens: 812,
  costUsd: 0.0012,
  tools: [],
};

describe("getTimelineRows", () => {
  it("puts a header before each step's entries", () => {
    const rows = getTimelineRows([entry(1, 0), entry(2, 0), entry(5, 1)], [step]);
    expect(rows.map((row) => (row.type === "step" ? `step ${row.step}` : row.entry.title))).toEqual([
      "step 0",
      "e1",
      "e2",
      "step 1",
      "e5",
    ]);
    expect(rows[0]).toMatchObject({ summary: "1.2 s · 812 tokens · $0.0012 · 1 LLM call" });
    expect(rows[3]).toMatchObject({ summary: "" });
    expect(new Set(rows.map((row) => row.key)).size).toBe(rows.length);
  });

  it("leaves the cost out of a free step", () => {
    expect(getStepSummary({ ...step, costUsd: 0, llmCalls: 2 })).toBe("1.2 s · 812 tokens · 2 LLM calls");
  });
});
