import type { StepView, TimelineEntry, TimelineKind } from "../../runs/fold/run-view.js";
import { formatCost, formatCount, formatDuration } from "../../util/format-metrics.js";

/** A row of the run timeline: a step's header (latency, tokens, cost) or one entry. */
export type TimelineRow =
  | {
      type: "step";
      key: string;
      step: number;
      summary: string;
      /** `Step 3`, `Answer` (the final answer is not a step), `Step 4 · in progress`. */
      label: string;
      /** One of the run's steps done (`RunTotals.steps` counts exactly these). */
      done: boolean;
    }
  | { type: "entry"; key: string; entry: TimelineEntry };

/** `1.2 s · 812 tokens · $0.001 · 2 LLM calls`, for a step header. */
export function getStepSummary(step: StepView): string {
  const parts = [
    formatDuration(Math.max(0, step.endTs - step.startTs)),
    `${formatCount(step.tokens)} tokens`,
  ];
  if (step.costUsd > 0) parts.push(formatCost(step.costUsd));
  parts.push(`${step.llmCalls} LLM call${step.llmCalls === 1 ? "" : "s"}`);
  return parts.join(" · ");
}

/**
 * The timeline's entries with a header row wherever a new step begins. The headers follow the one step
 * count (`getStepsAfter` of @waddle/protocol, `RunTotals.steps`, given as `stepsDone`): steps below it are
 * `Step N`; the answering step is `Answer`, not a step; a step still going is `in progress`, and one the
 * run ended in (it failed or was stopped there) is `not finished`.
 */
export function getTimelineRows(
  timeline: readonly TimelineEntry[],
  steps: readonly StepView[],
  options: { stepsDone?: number; ended?: boolean } = {},
): TimelineRow[] {
  const stepsDone = options.stepsDone ?? Number.POSITIVE_INFINITY;
  const byStep = new Map(steps.map((step) => [step.step, step]));
  const rows: TimelineRow[] = [];
  let current: number | null = null;
  for (const entry of timeline) {
    if (entry.step !== current) {
      current = entry.step;
      const step = byStep.get(entry.step);
      const done = entry.step < stepsDone;
      const answer = !done && step?.action === "final_response";
      const label = done || answer ? "" : options.ended ? " · not finished" : " · in progress";
      rows.push({
        type: "step",
        key: `step-${entry.step}-${entry.seq}`,
        step: entry.step,
        summary: step ? getStepSummary(step) : "",
        label: answer ? "Answer" : `Step ${entry.step + 1}${label}`,
        done,
      });
    }
    rows.push({ type: "entry", key: `entry-${entry.seq}-${rows.length}`, entry });
  }
  return rows;
}

/** Entries that explain something in a sentence (a stuck run, a guard's decision): they wrap, never cut off. */
const WRAPPED_KINDS: ReadonlySet<TimelineKind> = new Set(["stuck", "guard"]);

export function isWrappedEntry(entry: Pick<TimelineEntry, "kind">): boolean {
  return WRAPPED_KINDS.has(entry.kind);
}

/** The short badge each kind of entry shows. */
export const TIMELINE_LABELS: Readonly<Record<TimelineKind, string>> = {
  start: "Start",
  plan: "Plan",
  act: "Act",
  obs: "Obs",
  reflect: "Reflect",
  action: "Action",
  llm: "LLM",
  tool: "Tool",
  tool_error: "Error",
  retry: "Retry",
  repair: "Repair",
  constraint: "Limit",
  summary: "Summary",
  parallel: "Parallel",
  auto_seq: "Auto-seq",
  todos: "Todos",
  task: "Task",
  pause: "Pause",
  stuck: "Stuck",
  guard: "Guard",
  resumed: "Resumed",
  finish: "Finish",
  error: "Error",
};
