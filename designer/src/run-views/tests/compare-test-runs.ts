import type { TestCaseResult, TestCaseStatus, TestRunRecord } from "@waddle/protocol";

/** How a case moved from test run A to test run B. */
export type CaseChange = "newly_failing" | "fixed" | "same" | "added" | "removed";

export interface CaseComparison {
  caseId: string;
  name: string;
  change: CaseChange;
  a: TestCaseStatus | null;
  b: TestCaseStatus | null;
  /** B's first failure's check (when B failed), to say why without opening the case. */
  bFailure: TestCaseResult["failures"][number] | null;
}

export interface MetricTotals {
  llmCalls: number;
  tokens: number;
  costUsd: number;
  durationMs: number;
}

export interface TestRunComparison {
  /** Passed cases over the cases that ended passed or failed (skipped ones are left out); null: none. */
  passRate: { a: number | null; b: number | null };
  totals: { a: MetricTotals; b: MetricTotals; delta: MetricTotals };
  cases: CaseComparison[];
  counts: Record<CaseChange, number>;
}

/**
 * Two test runs side by side: pass rates, each case's change (newly failing, fixed, same, or only in one
 * of them), and B minus A in model calls, tokens, cost and time, summed over the cases both ran.
 */
export function compareTestRuns(a: TestRunRecord, b: TestRunRecord): TestRunComparison {
  const inA = new Map(a.cases.map((result) => [result.caseId, result]));
  const inB = new Map(b.cases.map((result) => [result.caseId, result]));
  const cases: CaseComparison[] = [];
  for (const left of a.cases) {
    const right = inB.get(left.caseId);
    cases.push({
      caseId: left.caseId,
      name: right?.name ?? left.name ?? left.caseId,
      change: right ? getChange(left.status, right.status) : "removed",
      a: left.status,
      b: right?.status ?? null,
      bFailure: right?.status === "failed" ? (right.failures[0] ?? null) : null,
    });
  }
  for (const right of b.cases) {
    if (inA.has(right.caseId)) continue;
    cases.push({
      caseId: right.caseId,
      name: right.name ?? right.caseId,
      change: "added",
      a: null,
      b: right.status,
      bFailure: right.status === "failed" ? (right.failures[0] ?? null) : null,
    });
  }
  // the changes that need a look come first, in their suite order
  cases.sort((left, right) => CHANGE_ORDER[left.change] - CHANGE_ORDER[right.change]);
  const both = (result: TestCaseResult, other: Map<string, TestCaseResult>) => other.has(result.caseId);
  const totalsA = sum(a.cases.filter((result) => both(result, inB)));
  const totalsB = sum(b.cases.filter((result) => both(result, inA)));
  const counts: Record<CaseChange, number> = { newly_failing: 0, fixed: 0, same: 0, added: 0, removed: 0 };
  for (const entry of cases) counts[entry.change] += 1;
  return {
    passRate: { a: getPassRate(a.cases), b: getPassRate(b.cases) },
    totals: {
      a: totalsA,
      b: totalsB,
      delta: {
        llmCalls: totalsB.llmCalls - totalsA.llmCalls,
        tokens: totalsB.tokens - totalsA.tokens,
        costUsd: totalsB.costUsd - totalsA.costUsd,
        durationMs: totalsB.durationMs - totalsA.durationMs,
      },
    },
    cases,
    counts,
  };
}

const CHANGE_ORDER: Record<CaseChange, number> = {
  newly_failing: 0,
  fixed: 1,
  added: 2,
  removed: 3,
  same: 4,
};

function getChange(a: TestCaseStatus, b: TestCaseStatus): CaseChange {
  if (a !== "failed" && b === "failed") return "newly_failing";
  if (a === "failed" && b === "passed") return "fixed";
  return "same";
}

/** Passed over passed + failed, 0..1; null when no case ended either way. */
export function getPassRate(cases: readonly Pick<TestCaseResult, "status">[]): number | null {
  const passed = cases.filter((result) => result.status === "passed").length;
  const failed = cases.filter((result) => result.status === "failed").length;
  return passed + failed === 0 ? null : passed / (passed + failed);
}

function sum(cases: readonly TestCaseResult[]): MetricTotals {
  const totals: MetricTotals = { llmCalls: 0, tokens: 0, costUsd: 0, durationMs: 0 };
  for (const result of cases) {
    totals.llmCalls += result.llmCalls;
    totals.tokens += result.tokens;
    totals.costUsd += result.costUsd;
    totals.durationMs += result.durationMs;
  }
  return totals;
}

/** `80%`, `—` when there is no rate. */
export function formatPassRate(rate: number | null): string {
  return rate === null ? "—" : `${Math.round(rate * 100)}%`;
}
