import { getRunTokens, type RunStatus } from "@waddle/protocol";
import type { RunTotals, RunView, StepView } from "../fold/run-view.js";

/** One run's side of a step row. */
export interface CompareStep {
  step: number;
  /** What the step did: a tool, `parallel`, `final_response`, … (null when it never got that far). */
  action: string | null;
  tools: readonly string[];
  source: string | null;
  llmCalls: number;
  tokens: number;
  costUsd: number;
  durationMs: number;
  /** Tool calls of the step that failed. */
  failures: number;
  /** A person rejected the step's call at a pause. */
  rejected?: true;
  /** A value at this step was written by a person when the run was forked (a result or a reply). */
  edited?: true;
}

/** Step `index` of both runs, side by side. */
export interface CompareRow {
  index: number;
  left?: CompareStep;
  right?: CompareStep;
  /** Both runs did the same thing at this step (same action and tools). */
  same: boolean;
}

export interface RunSideSummary {
  runId: string;
  status: RunStatus;
  finishReason: string | null;
  totals: RunTotals;
}

/** Right minus left. */
export interface RunTotalsDelta {
  llmCalls: number;
  tokens: number;
  costUsd: number;
  elapsedMs: number;
  steps: number;
  hops: number;
  autoSeqSaved: number;
}

export interface RunComparison {
  rows: CompareRow[];
  /** The first step where the runs differ, or null when they took the same steps. */
  divergesAt: number | null;
  /**
   * The first step whose result (or reply) one side had edited by a person when it was forked, or null: the
   * same tools from there on still saw different results.
   */
  editedAt: number | null;
  left: RunSideSummary;
  right: RunSideSummary;
  delta: RunTotalsDelta;
}

const getTokens = (totals: RunTotals) => getRunTokens(totals);

function getSteps(view: RunView): Map<number, CompareStep> {
  const failures = new Map<number, number>();
  for (const callId of view.callOrder) {
    const call = view.calls[callId];
    if (call?.status === "failed") failures.set(call.step, (failures.get(call.step) ?? 0) + 1);
  }
  const rejected = new Set(
    view.timeline.flatMap((entry) => (entry.status === "rejected" ? [entry.step] : [])),
  );
  const edited = new Set(view.timeline.flatMap((entry) => (entry.edited ? [entry.step] : [])));
  const steps = new Map<number, CompareStep>();
  for (const step of view.steps) {
    const compared = toCompareStep(step, failures.get(step.step) ?? 0);
    if (rejected.has(step.step)) compared.rejected = true;
    if (edited.has(step.step)) compared.edited = true;
    steps.set(step.step, compared);
  }
  return steps;
}

function toCompareStep(step: StepView, failures: number): CompareStep {
  return {
    step: step.step,
    action: step.action ?? (step.tools.length === 1 ? (step.tools[0] ?? null) : null),
    tools: step.tools,
    source: step.source ?? null,
    llmCalls: step.llmCalls,
    tokens: step.tokens,
    costUsd: step.costUsd,
    durationMs: Math.max(0, step.endTs - step.startTs),
    failures,
  };
}

const isSameStep = (left: CompareStep, right: CompareStep) =>
  left.action === right.action &&
  left.tools.length === right.tools.length &&
  left.tools.every((tool, index) => right.tools[index] === tool);

/**
 * Two runs side by side (two runs of one agent, typically): their steps aligned by index, the first step
 * where they part, and how much more (or less) the right one cost in LLM calls, tokens, money and time.
 */
export function compareRuns(left: RunView, right: RunView): RunComparison {
  const leftSteps = getSteps(left);
  const rightSteps = getSteps(right);
  const last = Math.max(-1, ...leftSteps.keys(), ...rightSteps.keys());
  const rows: CompareRow[] = [];
  let divergesAt: number | null = null;
  let editedAt: number | null = null;
  for (let index = 0; index <= last; index += 1) {
    const a = leftSteps.get(index);
    const b = rightSteps.get(index);
    if (a === undefined && b === undefined) continue;
    const same = a !== undefined && b !== undefined && isSameStep(a, b);
    const row: CompareRow = { index, same };
    if (a !== undefined) row.left = a;
    if (b !== undefined) row.right = b;
    rows.push(row);
    if (!same && divergesAt === null) divergesAt = index;
    // both edited: a fork of a fork copied the same edit, which is no difference
    if ((a?.edited === true) !== (b?.edited === true) && editedAt === null) editedAt = index;
  }
  const summary = (view: RunView): RunSideSummary => ({
    runId: view.runId,
    status: view.status,
    finishReason: view.finish?.reason ?? null,
    totals: view.totals,
  });
  const l = left.totals;
  const r = right.totals;
  return {
    rows,
    divergesAt,
    editedAt,
    left: summary(left),
    right: summary(right),
    delta: {
      llmCalls: r.llmCalls - l.llmCalls,
      tokens: getTokens(r) - getTokens(l),
      costUsd: r.costUsd - l.costUsd,
      elapsedMs: r.elapsedMs - l.elapsedMs,
      steps: r.steps - l.steps,
      hops: r.hops - l.hops,
      autoSeqSaved: r.autoSeqSaved - l.autoSeqSaved,
    },
  };
}

/**
 * The comparison's verdict in one sentence: where the runs part, or that they took the same path; and when
 * a forked side had a result edited by hand before they part, that it did (the same tools then saw
 * different results, so "the same at every step" would mislead).
 */
export function getCompareSummaryText(
  comparison: Pick<RunComparison, "divergesAt" | "editedAt" | "rows">,
): string {
  const { divergesAt, editedAt } = comparison;
  const path =
    divergesAt === null
      ? "Same path: both runs did the same thing at every step."
      : divergesAt === 0
        ? "The runs part at the first step."
        : `Same path for ${divergesAt} step${divergesAt === 1 ? "" : "s"}; they part at step ${divergesAt + 1}.`;
  if (editedAt === null || (divergesAt !== null && divergesAt < editedAt)) return path;
  const row = comparison.rows.find((candidate) => candidate.index === editedAt);
  const side = row?.right?.edited ? "B" : "A";
  const edited = `${side}'s result at step ${editedAt + 1} was edited when it was forked`;
  if (divergesAt === null)
    return `Same tools at every step, but ${edited}: the steps after it saw another result.`;
  if (divergesAt === editedAt) return `The runs part at step ${editedAt + 1}, where ${edited}.`;
  return `${edited[0]!.toUpperCase()}${edited.slice(1)}; from there the runs part at step ${divergesAt + 1}.`;
}
