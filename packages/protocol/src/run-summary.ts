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
  /** Steps started (`step_start`); at `run_finished`, the steps the run recorded. */
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
  switch (event.type) {
    case "run_started":
    case "resumed":
      next.status = "running";
      break;
    case "step_start":
      next.steps = Math.max(next.steps, event.step + 1);
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
      next.steps = metadata.steps;
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
