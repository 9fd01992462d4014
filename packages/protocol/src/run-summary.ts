import type { RunStatus } from "./api.js";
import type { FinishReason, Usage } from "./planner-action.js";
import type { RunEvent } from "./run-event.js";

/**
 * What a run's events say about the run as a whole. The one fold of run events into it is shared by the
 * server's run recorder, the designer's run view and the CLI, so that they agree on status and usage.
 */
export interface RunSummary {
  status: RunStatus;
  /** The last event folded in: events at or below it (duplicates, replays) change nothing. */
  lastSeq: number;
  /** Summed over `llm_call` events; at `run_finished`, the run's own totals where they know more. */
  usage: Usage;
  /** Steps the run has done (`getStepsAfter`: see there for what a step is). */
  steps: number;
  /** The final answer, once `run_finished` came. */
  answer: string | null;
  finishReason: FinishReason | null;
  error: { code: string; message: string } | null;
}

/** A run before its first event (or, with `from`, one whose earlier events were folded elsewhere). */
export function createRunSummary(from: Partial<RunSummary> = {}): RunSummary {
  return {
    status: "queued",
    lastSeq: 0,
    usage: { promptTokens: 0, completionTokens: 0, reasoningTokens: 0, costUsd: 0, llmCalls: 0 },
    steps: 0,
    answer: null,
    finishReason: null,
    error: null,
    ...from,
  };
}

/** Folds one event into the summary. Pure: a new summary, or the same one when the event is old. */
export function applyRunSummary(summary: RunSummary, event: RunEvent): RunSummary {
  if (event.seq <= summary.lastSeq) return summary;
  const next: RunSummary = { ...summary, lastSeq: event.seq };
  if (next.status === "queued") next.status = "running";
  next.steps = getStepsAfter(next.steps, event);
  switch (event.type) {
    case "run_started":
    case "resumed":
      next.status = "running";
      break;
    case "llm_call":
      next.usage = addLlmCallUsage(next.usage, event.data);
      break;
    case "pause":
      next.status = "paused";
      break;
    case "run_finished": {
      const { reason, payload, metadata } = event.data;
      next.status = getFinishedStatus(reason);
      next.finishReason = reason;
      next.answer = payload.answer;
      next.usage = getLargerUsage(next.usage, metadata.usage);
      break;
    }
    case "run_failed":
      next.status = "failed";
      next.error = { code: event.data.error.code, message: event.data.error.message };
      break;
    case "run_interrupted":
      next.status = "interrupted";
      next.error = { code: "interrupted", message: event.data.message };
      break;
    default:
      break;
  }
  return next;
}

/**
 * The one definition of a run's step count, shared by the server's run summary, every view of the designer
 * (live totals, the finished run, the timeline, the history list, comparisons) and the CLI.
 *
 * A **step** is one planner action the run has done and recorded in its trajectory: one tool call (an
 * approved, edited or rejected one included: a rejection is recorded as the step's failure), one parallel
 * fan-out (all its branches and its join together count as one step), one auto-seq action (each is its own
 * step, though no LLM call chose it), one task opcode. The final answer is not a step, and neither is the
 * step in progress: it counts once it is recorded. This is the planner's `metadata.steps`.
 *
 * Every event carries `step`, the index of the step it belongs to, which is the number of steps recorded
 * before it: so the count after an event is the largest `step` seen so far (at `run_finished`, the run's
 * own `metadata.steps` where it says more). Monotone, and the same for any prefix of the events.
 */
export function getStepsAfter(steps: number, event: RunEvent): number {
  const seen = Math.max(steps, event.step);
  return event.type === "run_finished" ? Math.max(seen, event.data.metadata.steps) : seen;
}

/**
 * The one token figure a run shows everywhere: prompt plus completion tokens. Reasoning tokens are not
 * added again: providers count them inside the completion tokens (OpenAI's
 * `completion_tokens_details.reasoning_tokens`); they are shown apart where a breakdown is given.
 */
export function getRunTokens(usage: Pick<Usage, "promptTokens" | "completionTokens">): number {
  return usage.promptTokens + usage.completionTokens;
}

/** The step count and token figure of a run, from its events (`getStepsAfter`, `getRunTokens`). */
export function getRunFigures(events: readonly RunEvent[]): { steps: number; tokens: number } {
  const summary = events.reduce(applyRunSummary, createRunSummary());
  return { steps: summary.steps, tokens: getRunTokens(summary.usage) };
}

/** The usage after one LLM call: its tokens and cost added, one call more. */
export function addLlmCallUsage(
  usage: Usage,
  call: Pick<Usage, "promptTokens" | "completionTokens" | "reasoningTokens" | "costUsd">,
): Usage {
  return {
    promptTokens: usage.promptTokens + call.promptTokens,
    completionTokens: usage.completionTokens + call.completionTokens,
    reasoningTokens: usage.reasoningTokens + call.reasoningTokens,
    costUsd: usage.costUsd + call.costUsd,
    llmCalls: usage.llmCalls + 1,
  };
}

/** The status a run ends in with a `run_finished` of this reason. */
export function getFinishedStatus(reason: FinishReason): "finished" | "cancelled" {
  return reason === "cancelled" ? "cancelled" : "finished";
}

/** Each field the larger: the run's own totals count calls made before a viewer's first event. */
function getLargerUsage(counted: Usage, reported: Usage): Usage {
  return {
    promptTokens: Math.max(counted.promptTokens, reported.promptTokens),
    completionTokens: Math.max(counted.completionTokens, reported.completionTokens),
    reasoningTokens: Math.max(counted.reasoningTokens, reported.reasoningTokens),
    costUsd: Math.max(counted.costUsd, reported.costUsd),
    llmCalls: Math.max(counted.llmCalls, reported.llmCalls),
  };
}
