import { getRunTokens, type ShadowCase, type ShadowReportSummary } from "@waddle/protocol";
import {
  formatCost,
  formatCount,
  formatDelta,
  formatDuration,
  type DeltaTone,
} from "../util/format-metrics.js";

export interface ShadowFigure {
  label: string;
  baseline: string;
  candidate: string;
  delta: string;
  tone: DeltaTone;
}

export interface ShadowSummaryView {
  /** "v12 against production (v9) · 20 cases" */
  title: string;
  /** "18 of 20 same tools · 15 same answers · 2 calls not recorded" */
  line: string;
  figures: ShadowFigure[];
  /** Said when there was nothing to replay. */
  note: string | null;
}

/**
 * A shadow report's totals as the release dialog shows them: how many cases took the same tools and gave
 * the same answer, the calls refused as not recorded, and tokens, cost and time, baseline against candidate.
 */
export function getShadowSummary(report: ShadowReportSummary): ShadowSummaryView {
  const { totals, baseline } = report;
  const served = baseline.version === null ? "no release" : `v${baseline.version}`;
  const cases = `${totals.cases} case${totals.cases === 1 ? "" : "s"}`;
  const line =
    totals.cases === 0
      ? "Nothing to replay"
      : [
          `${totals.sameTools} of ${totals.cases} same tools`,
          `${totals.sameAnswer} same answer${totals.sameAnswer === 1 ? "" : "s"}`,
          `${totals.notRecorded} call${totals.notRecorded === 1 ? "" : "s"} not recorded`,
        ].join(" · ");
  const sides = [totals.baseline, totals.candidate] as const;
  const tokens = sides.map((side) => getRunTokens(side.usage));
  const cost = sides.map((side) => side.usage.costUsd);
  const time = sides.map((side) => side.durationMs);
  const figure = (label: string, values: readonly number[], kind: "count" | "cost" | "duration") => {
    const format = kind === "cost" ? formatCost : kind === "duration" ? formatDuration : formatCount;
    const delta = formatDelta((values[1] ?? 0) - (values[0] ?? 0), kind);
    return {
      label,
      baseline: format(values[0]),
      candidate: format(values[1]),
      delta: delta.text,
      tone: delta.tone,
    };
  };
  return {
    title: `v${report.candidateVersion} against ${baseline.channel} (${served}) · ${cases}`,
    line,
    figures: [
      figure("Tokens", tokens, "count"),
      figure("Cost", cost, "cost"),
      figure("Time", time, "duration"),
      figure("Failed", [totals.baseline.failed, totals.candidate.failed], "count"),
    ],
    note: report.note,
  };
}

export interface ShadowCaseRow {
  runId: string;
  query: string;
  /** "same tools", "parts at call 2: lookup → search", … */
  path: string;
  sameTools: boolean;
  sameAnswer: boolean;
  notRecorded: number;
  baselineAnswer: string;
  candidateAnswer: string;
}

/** One replayed case as a row: where the tool paths part, and the two answers. */
export function getShadowCaseRow(entry: ShadowCase): ShadowCaseRow {
  const at = entry.partsAt;
  const baseTool = at === null ? undefined : entry.baseline.tools[at]?.tool;
  const candidateTool = at === null ? undefined : entry.candidate.tools[at]?.tool;
  const path =
    entry.sameTools || at === null
      ? "same tools"
      : `parts at call ${at + 1}: ${baseTool ?? "(none)"} → ${candidateTool ?? "(none)"}`;
  const answer = (side: ShadowCase["baseline"]) =>
    side.answer ?? (side.error ? `(${side.error.code})` : "(none)");
  return {
    runId: entry.runId,
    query: entry.query,
    path,
    sameTools: entry.sameTools,
    sameAnswer: entry.sameAnswer,
    notRecorded: entry.notRecorded,
    baselineAnswer: answer(entry.baseline),
    candidateAnswer: answer(entry.candidate),
  };
}
