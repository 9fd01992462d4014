import { getRunTokens } from "@waddle/protocol";
import type { RunComparison } from "../../runs/compare/compare-runs.js";
import type { RunTotals } from "../../runs/fold/run-view.js";
import {
  formatCost,
  formatCount,
  formatDelta,
  formatDuration,
  type FormattedDelta,
  type MetricKind,
} from "../../util/format-metrics.js";

export type CompareMetricKey =
  "steps" | "llmCalls" | "tokens" | "costUsd" | "elapsedMs" | "hops" | "autoSeqSaved";

/** One line of the comparison's totals: both runs' figures and B minus A, toned for better or worse. */
export interface CompareMetric {
  key: CompareMetricKey;
  label: string;
  left: string;
  right: string;
  delta: FormattedDelta;
}

const METRICS: readonly {
  key: CompareMetricKey;
  label: string;
  kind: MetricKind;
  read(totals: RunTotals): number;
  /** More is better (auto-seq savings); every other figure is a cost. */
  higherIsBetter?: boolean;
}[] = [
  { key: "steps", label: "Steps", kind: "count", read: (totals) => totals.steps },
  { key: "llmCalls", label: "LLM calls", kind: "count", read: (totals) => totals.llmCalls },
  {
    key: "tokens",
    label: "Tokens",
    kind: "count",
    read: (totals) => getRunTokens(totals),
  },
  { key: "costUsd", label: "Cost", kind: "cost", read: (totals) => totals.costUsd },
  { key: "elapsedMs", label: "Time", kind: "duration", read: (totals) => totals.elapsedMs },
  { key: "hops", label: "Tool calls", kind: "count", read: (totals) => totals.hops },
  {
    key: "autoSeqSaved",
    label: "LLM calls saved by auto-seq",
    kind: "count",
    read: (totals) => totals.autoSeqSaved,
    higherIsBetter: true,
  },
];

const FORMAT: Record<MetricKind, (value: number) => string> = {
  count: (value) => formatCount(value),
  cost: (value) => formatCost(value),
  duration: (value) => formatDuration(value),
};

/** The totals rows of a comparison, with the deltas `compareRuns` computed (B minus A). */
export function getCompareTotals(comparison: RunComparison): CompareMetric[] {
  const left = comparison.left.totals;
  const right = comparison.right.totals;
  return METRICS.map((metric) => {
    const a = metric.read(left);
    const b = metric.read(right);
    const delta = formatDelta(b - a, metric.kind);
    const tone =
      metric.higherIsBetter && delta.tone !== "same"
        ? delta.tone === "better"
          ? "worse"
          : "better"
        : delta.tone;
    return {
      key: metric.key,
      label: metric.label,
      left: FORMAT[metric.kind](a),
      right: FORMAT[metric.kind](b),
      delta: { text: delta.text, tone },
    };
  });
}
