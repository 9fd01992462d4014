import { PlanningHints } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import type { RunTotals } from "../../runs/fold/run-view.js";
import { getBudgetBars, getElapsedMs } from "./get-budget-bars.js";

const totals: RunTotals = {
  llmCalls: 3,
  promptTokens: 900,
  completionTokens: 300,
  reasoningTokens: 0,
  costUsd: 0.009,
  hops: 4,
  steps: 3,
  autoSeqSaved: 1,
  elapsedMs: 1200,
};

const hints = (maxCost?: number) =>
  PlanningHints.parse(maxCost === undefined ? {} : { budget_hints: { max_cost_usd: maxCost } });

describe("getBudgetBars", () => {
  it("shows only the budgets the agent sets", () => {
    expect(
      getBudgetBars({ spec: { planner: {}, hints: hints() } as never, totals, steps: [], elapsedMs: 0 }),
    ).toEqual([]);
  });

  it("measures every budget against the run", () => {
    const bars = getBudgetBars({
      spec: { planner: { tokenBudget: 1000, hopBudget: 5, deadlineS: 2 }, hints: hints(0.01) } as never,
      totals,
      steps: [{ tokens: 400 }, { tokens: 700 }, { tokens: 100 }],
      elapsedMs: 2500,
    });
    expect(bars.map((bar) => [bar.key, bar.used, bar.limit, bar.tone])).toEqual([
      ["tokens", 700, 1000, "ok"],
      ["cost", 0.009, 0.01, "warn"],
      ["hops", 4, 5, "warn"],
      ["deadline", 2500, 2000, "over"],
    ]);
    const deadline = bars[3]!;
    expect(deadline.ratio).toBe(1);
    expect(deadline.over).toBe(true);
    expect(deadline.leftText).toBe("500 ms over");
    expect(bars[2]!.text).toBe("4 of 5");
    expect(bars[2]!.leftText).toBe("1 left");
  });
});

describe("getElapsedMs", () => {
  it("runs to now while live and to the last event after", () => {
    expect(getElapsedMs({ firstTs: null, lastTs: null, live: true, now: 50 })).toBe(0);
    expect(getElapsedMs({ firstTs: 100, lastTs: 300, live: false, now: 900 })).toBe(200);
    expect(getElapsedMs({ firstTs: 100, lastTs: 300, live: true, now: 900 })).toBe(800);
  });
});
