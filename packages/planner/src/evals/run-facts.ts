import type { RunEvent, RunStatus } from "@waddle/protocol";
import { getPauseFact, type RunPauseFact } from "./describe-pause.js";
import type { RunStuckFact } from "./check-stuck.js";
import type { RunGuardFact } from "./check-guard-verdicts.js";
import type { UnexpectedToolCall } from "./test-case-tools.js";

/** What a test case's checks look at, read from a run's events. */
export interface RunFacts {
  status: RunStatus;
  /** The final answer (`payload.answer`), undefined when the run did not finish with one. */
  answer: unknown;
  /** The tools the run called, in the order their first attempt started. */
  toolCalls: string[];
  llmCalls: number;
  tokens: number;
  costUsd: number;
  durationMs: number;
  unexpectedCalls: UnexpectedToolCall[];
  /** The error a failed run ended with. */
  error?: { code: string; message: string };
  /** What the run waits on, when its last pause was not answered. */
  pause?: RunPauseFact;
  /** The run's `stuck_detected` events. */
  stuck?: RunStuckFact[];
  /** The run's `guard_verdict` events. */
  guards?: RunGuardFact[];
}

/** The run's status as its last outcome event says (`running` when it has none yet). */
export function getStatusFromEvents(events: readonly RunEvent[]): RunStatus {
  for (let index = events.length - 1; index >= 0; index -= 1) {
    const event = events[index]!;
    if (event.type === "run_finished") return event.data.reason === "cancelled" ? "cancelled" : "finished";
    if (event.type === "run_failed") return "failed";
    if (event.type === "run_interrupted") return "interrupted";
    if (event.type === "pause") return "paused";
    if (event.type === "resumed") return "running";
  }
  return "running";
}

/**
 * Reads the facts of a run from its events. `answer`, `status` and `durationMs` given by the caller win
 * (the run's record holds the whole answer; events hold a bounded preview).
 */
export function getRunFacts(
  events: readonly RunEvent[],
  known: { status?: RunStatus; answer?: unknown; durationMs?: number } = {},
): RunFacts {
  const facts: RunFacts = {
    status: known.status ?? getStatusFromEvents(events),
    answer: undefined,
    toolCalls: [],
    llmCalls: 0,
    tokens: 0,
    costUsd: 0,
    durationMs: 0,
    unexpectedCalls: [],
  };
  let finishedDuration: number | undefined;
  for (const event of events) {
    if (event.type === "tool_start" && event.data.attempt === 1) facts.toolCalls.push(event.data.tool);
    else if (event.type === "llm_call") {
      facts.llmCalls += 1;
      facts.tokens += event.data.promptTokens + event.data.completionTokens + event.data.reasoningTokens;
      facts.costUsd += event.data.costUsd;
    } else if (event.type === "tool_error" && event.data.failure.error_code === "unexpected_tool_call") {
      facts.unexpectedCalls.push({ tool: event.data.tool, args: event.data.failure.args });
    } else if (event.type === "run_finished") {
      facts.answer = event.data.payload.answer;
      finishedDuration = event.data.metadata.durationMs;
    } else if (event.type === "run_failed") {
      facts.error = { code: event.data.error.code, message: event.data.error.message };
    } else if (event.type === "pause") facts.pause = getPauseFact(event.data);
    else if (event.type === "resumed") delete facts.pause;
    else if (event.type === "stuck_detected") (facts.stuck ??= []).push(event.data);
    else if (event.type === "guard_verdict") (facts.guards ??= []).push(event.data);
  }
  if ("answer" in known && known.answer !== undefined) facts.answer = known.answer;
  const first = events[0];
  const last = events.at(-1);
  facts.durationMs =
    known.durationMs ?? finishedDuration ?? (first && last ? Math.max(0, last.ts - first.ts) : 0);
  facts.costUsd = Math.round(facts.costUsd * 1e9) / 1e9;
  return facts;
}
