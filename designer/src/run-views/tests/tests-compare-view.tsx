import type { TestRunRecord } from "@waddle/protocol";
import { useEffect, useMemo, useRef, type ReactElement } from "react";
import { formatCost, formatCount, formatDelta, formatDuration } from "../../util/format-metrics.js";
import { formatStartTime } from "../../util/format-time.js";
import { PairPicker } from "../compare/pair-picker.js";
import { compareTestRuns, formatPassRate, type CaseChange } from "./compare-test-runs.js";
import { describeTestFailure } from "./describe-test-failure.js";
import type { TestRunSummary } from "./tests-store.js";

const CHANGE_WORDS: Record<CaseChange, string> = {
  newly_failing: "Newly failing",
  fixed: "Fixed",
  same: "Same",
  added: "Only in B",
  removed: "Only in A",
};

/** A test run as an option: its version, when, how it went. */
export function describeTestRun(run: TestRunSummary): string {
  const { passed, failed, skipped } = run.totals;
  const counts = `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`;
  return `v${run.agentVersion} · ${formatStartTime(run.createdAt)} · ${run.status} · ${counts}`;
}

/** Two selects over the agent's ended test runs (A the older by default) and **Compare**. */
export function TestsComparePicker(props: {
  testRuns: readonly TestRunSummary[];
  onCompare(a: string, b: string): void;
}): ReactElement {
  return (
    <PairPicker
      items={props.testRuns.filter((run) => run.status !== "running")}
      noun="Test run"
      describe={describeTestRun}
      empty="Comparing needs two test runs that have ended: run the suite on two versions."
      className="tests-compare-picker"
      ariaLabel="Choose two test runs to compare"
      testIds={{ left: "tests-compare-left", right: "tests-compare-right", submit: "tests-compare" }}
      onCompare={props.onCompare}
    />
  );
}

/**
 * Two test runs side by side: pass rates, each case's change (newly failing and fixed first) and the
 * deltas of B against A in model calls, tokens, cost and time over the cases both ran.
 */
export function TestsCompareView(props: {
  a: TestRunRecord;
  b: TestRunRecord;
  onClose(): void;
  onOpenRun(runId: string): void;
}): ReactElement {
  const { a, b } = props;
  const comparison = useMemo(() => compareTestRuns(a, b), [a, b]);
  const section = useRef<HTMLElement>(null);
  // it opens below the cases: brought into view once, where the Compare button was (a block body: Chromium's
  // scrollIntoView may answer a promise, which React would take for a cleanup)
  useEffect(() => {
    section.current?.scrollIntoView({ block: "nearest" });
  }, []);
  const { totals, passRate, counts } = comparison;
  const metrics = [
    {
      label: "Model calls",
      a: formatCount(totals.a.llmCalls),
      b: formatCount(totals.b.llmCalls),
      delta: formatDelta(totals.delta.llmCalls, "count"),
    },
    {
      label: "Tokens",
      a: formatCount(totals.a.tokens),
      b: formatCount(totals.b.tokens),
      delta: formatDelta(totals.delta.tokens, "count"),
    },
    {
      label: "Cost",
      a: formatCost(totals.a.costUsd),
      b: formatCost(totals.b.costUsd),
      delta: formatDelta(totals.delta.costUsd, "cost"),
    },
    {
      label: "Time",
      a: formatDuration(totals.a.durationMs),
      b: formatDuration(totals.b.durationMs),
      delta: formatDelta(totals.delta.durationMs, "duration"),
    },
  ];
  const rateDelta =
    passRate.a !== null && passRate.b !== null ? Math.round((passRate.b - passRate.a) * 100) : null;
  const byId = {
    a: new Map(a.cases.map((c) => [c.caseId, c])),
    b: new Map(b.cases.map((c) => [c.caseId, c])),
  };
  return (
    <section
      ref={section}
      className="tests-compare-view"
      data-testid="tests-compare-view"
      aria-label="Two test runs compared"
    >
      <div className="compare-toolbar">
        <span className="compare-toolbar-title">
          A: v{a.agentVersion} · B: v{b.agentVersion}
        </span>
        <button
          type="button"
          className="btn btn-ghost btn-small"
          data-testid="tests-compare-close"
          onClick={props.onClose}
        >
          Close comparison
        </button>
      </div>
      <table className="tests-compare-table" aria-label="Totals">
        <thead>
          <tr>
            <th scope="col" />
            <th scope="col">A · v{a.agentVersion}</th>
            <th scope="col">B · v{b.agentVersion}</th>
            <th scope="col">B − A</th>
          </tr>
        </thead>
        <tbody>
          <tr data-testid="tests-compare-pass-rate">
            <th scope="row">Pass rate</th>
            <td>
              {formatPassRate(passRate.a)} ({a.totals.passed}/{a.totals.passed + a.totals.failed})
            </td>
            <td>
              {formatPassRate(passRate.b)} ({b.totals.passed}/{b.totals.passed + b.totals.failed})
            </td>
            <td
              className={`delta tone-${rateDelta === null || rateDelta === 0 ? "same" : rateDelta > 0 ? "better" : "worse"}`}
            >
              {rateDelta === null
                ? "—"
                : rateDelta === 0
                  ? "±0"
                  : `${rateDelta > 0 ? "+" : ""}${rateDelta} pts`}
            </td>
          </tr>
          {metrics.map((metric) => (
            <tr key={metric.label}>
              <th scope="row">{metric.label}</th>
              <td>{metric.a}</td>
              <td>{metric.b}</td>
              <td className={`delta tone-${metric.delta.tone}`}>{metric.delta.text}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="tests-compare-counts" data-testid="tests-compare-counts">
        {counts.newly_failing} newly failing · {counts.fixed} fixed · {counts.same} same
        {counts.added ? ` · ${counts.added} only in B` : ""}
        {counts.removed ? ` · ${counts.removed} only in A` : ""}
      </p>
      <ul className="tests-compare-cases">
        {comparison.cases.map((entry) => {
          const runA = byId.a.get(entry.caseId)?.runId;
          const runB = byId.b.get(entry.caseId)?.runId;
          return (
            <li
              key={entry.caseId}
              className={`tests-compare-case is-${entry.change}`}
              data-testid="tests-compare-case"
              data-change={entry.change}
            >
              <div className="tests-compare-case-head">
                <span className={`test-change-chip is-${entry.change}`}>{CHANGE_WORDS[entry.change]}</span>
                <span className="test-case-name">{entry.name}</span>
              </div>
              <div className="tests-compare-sides">
                <span>
                  A: {entry.a ?? "—"}
                  {runA ? (
                    <button type="button" className="link-btn" onClick={() => props.onOpenRun(runA)}>
                      open
                    </button>
                  ) : null}
                </span>
                <span>
                  B: {entry.b ?? "—"}
                  {runB ? (
                    <button type="button" className="link-btn" onClick={() => props.onOpenRun(runB)}>
                      open
                    </button>
                  ) : null}
                </span>
              </div>
              {entry.bFailure ? (
                <p className="test-failure-sentence">{describeTestFailure(entry.bFailure).sentence}</p>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
