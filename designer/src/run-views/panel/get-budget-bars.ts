import { getRunTokens, type AgentSpec } from "@waddle/protocol";
import type { RunTotals, StepView } from "../../runs/fold/run-view.js";
import { formatCost, formatCount, formatDuration } from "../../util/format-metrics.js";

export type BudgetKey = "tokens" | "cost" | "hops" | "deadline";

/** One burn-down bar: how much of a budget the run has used. */
export interface BudgetBar {
  key: BudgetKey;
  label: string;
  used: number;
  limit: number;
  /** used / limit, clamped to 0..1 for drawing (`over` says when it went past). */
  ratio: number;
  over: boolean;
  tone: "ok" | "warn" | "over";
  /** e.g. `1.2k of 8k`. */
  text: string;
  /** e.g. `6.8k left`. */
  leftText: string;
  title: string;
}

const WARN_AT = 0.8;

function getBar(options: {
  key: BudgetKey;
  label: string;
  used: number;
  limit: number;
  format: (value: number) => string;
  title: string;
}): BudgetBar {
  const { key, label, used, limit, format, title } = options;
  const raw = limit > 0 ? used / limit : 0;
  const over = used > limit;
  return {
    key,
    label,
    used,
    limit,
    ratio: Math.min(1, Math.max(0, raw)),
    over,
    tone: over || raw >= 1 ? "over" : raw >= WARN_AT ? "warn" : "ok",
    text: `${format(used)} of ${format(limit)}`,
    leftText: over ? `${format(used - limit)} over` : `${format(limit - used)} left`,
    title,
  };
}

/**
 * The agent's budgets that are set (planner tokenBudget, hopBudget, deadlineS and the hints'
 * `budget_hints.max_cost_usd`) against what the run has used. The token budget bounds each prompt, so its
 * bar shows the largest step, not the sum of all steps.
 */
export function getBudgetBars(options: {
  spec: Pick<AgentSpec, "planner" | "hints">;
  totals: RunTotals;
  steps: readonly Pick<StepView, "tokens">[];
  /** Time the run has taken so far (ticks while it runs). */
  elapsedMs: number;
}): BudgetBar[] {
  const { spec, totals, steps, elapsedMs } = options;
  const bars: BudgetBar[] = [];
  const { tokenBudget, hopBudget, deadlineS } = spec.planner;
  if (tokenBudget !== undefined) {
    const peak = steps.reduce((max, step) => Math.max(max, step.tokens), 0);
    bars.push(
      getBar({
        key: "tokens",
        label: "Tokens",
        used: peak,
        limit: tokenBudget,
        format: formatCount,
        title: `Token budget ${tokenBudget} per prompt: the largest step used ${peak} tokens (${getRunTokens(totals)} in the whole run).`,
      }),
    );
  }
  const maxCost = spec.hints.budget_hints.max_cost_usd;
  if (maxCost !== undefined) {
    bars.push(
      getBar({
        key: "cost",
        label: "Cost",
        used: totals.costUsd,
        limit: maxCost,
        format: formatCost,
        title: `Cost ceiling (budget_hints.max_cost_usd): ${formatCost(totals.costUsd)} spent of ${formatCost(maxCost)}.`,
      }),
    );
  }
  if (hopBudget !== undefined) {
    bars.push(
      getBar({
        key: "hops",
        label: "Hops",
        used: totals.hops,
        limit: hopBudget,
        format: formatCount,
        title: `Hop budget: ${totals.hops} of ${hopBudget} tool calls made.`,
      }),
    );
  }
  if (deadlineS !== undefined) {
    bars.push(
      getBar({
        key: "deadline",
        label: "Time",
        used: elapsedMs,
        limit: deadlineS * 1000,
        format: formatDuration,
        title: `Deadline ${deadlineS} s: ${formatDuration(elapsedMs)} elapsed.`,
      }),
    );
  }
  return bars;
}

/** How long the run has taken: to the last event once it has ended, to `now` while it still runs. */
export function getElapsedMs(options: {
  firstTs: number | null;
  lastTs: number | null;
  live: boolean;
  now: number;
}): number {
  const { firstTs, lastTs, live, now } = options;
  if (firstTs === null) return 0;
  const end = live ? Math.max(now, lastTs ?? now) : (lastTs ?? firstTs);
  return Math.max(0, end - firstTs);
}
