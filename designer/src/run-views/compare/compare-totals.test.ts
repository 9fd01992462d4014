import { describe, expect, it } from "vitest";
import type { RunComparison, RunSideSummary } from "../../runs/compare/compare-runs.js";
import type { RunTotals } from "../../runs/fold/run-view.js";
import { getCompareTotals } from "./compare-totals.js";

const base: RunTotals = {
  llmCalls: 4,
  promptTokens: 1000,
  completionTokens: 200,
  reasoningTokens: 0,
  costUsd: 0.01,
  hops: 3,
  steps: 4,
  autoSeqSaved: 1,
  elapsedMs: 4000,
};

function side(runId: string, totals: RunTotals): RunSideSummary {
  return { runId, status: "finished", finishReason: "answer_complete", totals };
}

function compare(left: RunTotals, right: RunTotals): RunComparison {
  return {
    rows: [],
    divergesAt: null,
    editedAt: null,
    left: side("a", left),
    right: side("b", right),
    delta: { llmCalls: 0, tokens: 0, costUsd: 0, elapsedMs: 0, steps: 0, hops: 0, autoSeqSaved: 0 },
  };
}

describe("getCompareTotals", () => {
  it("shows both figures and B minus A, a rise in cost as worse", () => {
    const rows = getCompareTotals(
      compare(base, { ...base, llmCalls: 6, completionTokens: 700, costUsd: 0.0125, elapsedMs: 3150 }),
    );
    const byKey = Object.fromEntries(rows.map((row) => [row.key, row]));
    expect(byKey.llmCalls).toMatchObject({ left: "4", right: "6", delta: { text: "+2", tone: "worse" } });
    expect(byKey.tokens).toMatchObject({
      left: "1.2k",
      right: "1.7k",
      delta: { text: "+500", tone: "worse" },
    });
    expect(byKey.costUsd?.delta).toEqual({ text: "+$0.0025", tone: "worse" });
    expect(byKey.elapsedMs?.delta).toEqual({ text: "-850 ms", tone: "better" });
    expect(byKey.steps?.delta).toEqual({ text: "±0", tone: "same" });
  });
  it("calls more auto-seq savings better", () => {
    const rows = getCompareTotals(compare(base, { ...base, autoSeqSaved: 3 }));
    expect(rows.find((row) => row.key === "autoSeqSaved")?.delta).toEqual({ text: "+2", tone: "better" });
  });
});
