import type { TestCaseResult, TestRunRecord } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { compareTestRuns, formatPassRate, getPassRate } from "./compare-test-runs.js";
import { summarizeExpect } from "./summarize-expect.js";

const result = (
  caseId: string,
  status: TestCaseResult["status"],
  metrics: Partial<TestCaseResult> = {},
): TestCaseResult => ({
  caseId,
  name: caseId,
  runId: `run_${caseId}`,
  status,
  failures: status === "failed" ? [{ check: "status", expected: "finished", actual: "paused" }] : [],
  llmCalls: 2,
  tokens: 100,
  costUsd: 0.001,
  durationMs: 50,
  ...metrics,
});

const run = (agentVersion: number, cases: TestCaseResult[]): TestRunRecord => ({
  id: `tr_${agentVersion}`,
  agentId: "support-triage",
  agentVersion,
  status: "failed",
  totals: { passed: 0, failed: 0, skipped: 0 },
  cases,
  createdAt: "2026-11-27T00:00:00.000Z",
  finishedAt: "2026-11-27T00:00:01.000Z",
});

describe("compareTestRuns", () => {
  it("sorts newly failing and fixed first, counts each change, and sums deltas over the shared cases", () => {
    const a = run(1, [
      result("keeps", "passed"),
      result("breaks", "passed", { llmCalls: 4, tokens: 400 }),
      result("heals", "failed"),
      result("gone", "passed", { tokens: 9999 }),
    ]);
    const b = run(2, [
      result("keeps", "passed", { durationMs: 80 }),
      result("breaks", "failed", { llmCalls: 1, tokens: 50, costUsd: 0.0005 }),
      result("heals", "passed"),
      result("new", "failed", { tokens: 7777 }),
    ]);
    const comparison = compareTestRuns(a, b);
    expect(comparison.cases.map((entry) => [entry.caseId, entry.change])).toEqual([
      ["breaks", "newly_failing"],
      ["heals", "fixed"],
      ["new", "added"],
      ["gone", "removed"],
      ["keeps", "same"],
    ]);
    expect(comparison.cases[0]!.bFailure).toMatchObject({ check: "status" });
    expect(comparison.counts).toEqual({ newly_failing: 1, fixed: 1, same: 1, added: 1, removed: 1 });
    expect(comparison.passRate).toEqual({ a: 0.75, b: 0.5 });
    expect(comparison.totals.delta).toEqual({
      llmCalls: 1 - 4,
      tokens: 50 - 400,
      costUsd: expect.closeTo(-0.0005, 9) as number,
      durationMs: 30,
    });
  });

  it("leaves skipped cases out of the pass rate, and has none when nothing ended", () => {
    expect(getPassRate([{ status: "passed" }, { status: "skipped" }, { status: "failed" }])).toBe(0.5);
    expect(getPassRate([{ status: "skipped" }])).toBeNull();
    expect(formatPassRate(2 / 3)).toBe("67%");
    expect(formatPassRate(null)).toBe("—");
  });
});

describe("summarizeExpect", () => {
  it("says each expectation in a short phrase", () => {
    expect(
      summarizeExpect({
        status: "finished",
        trajectory: { tools: ["triage", "summarize"], order: "exact", forbidden: ["send"], maxLlmCalls: 5 },
        answer: { equals: "Refund issued", contains: ["refund"], judge: { criteria: "polite" } },
        budget: { maxTokens: 5000, maxDurationMs: 2000 },
      }),
    ).toEqual([
      "ends finished",
      "tools triage → summarize (exactly)",
      "never send",
      "≤ 5 model calls",
      'answer equals "Refund issued"',
      'answer contains "refund"',
      "judged by a model",
      "≤ 5000 tokens",
      "≤ 2.0 s",
    ]);
    expect(summarizeExpect({})).toEqual([]);
  });
});
