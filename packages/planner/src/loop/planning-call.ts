// The planning call of one iteration, as the action planner makes it (see planWithLlm).
import type { Rejection } from "../actions/action-checker.js";
import { TimeoutError } from "../util/cancellation.js";
import { isLlmError } from "../errors/llm-error.js";
import type { LlmCallInput, LlmCallOutput, LlmPurpose } from "../llm/llm-caller.js";
import type { LlmMessage } from "../llm/llm-client.js";
import type { RunContext } from "./run-context.js";
import { resolveReasoningEffort } from "../llm/reasoning-router.js";
import { interruptedRejection } from "../actions/rejections.js";
import type { PlannerOutcome } from "../run/run-types.js";
import type { ArgFillRequest } from "../actions/interpret-reply.js";
import { finishAtDeadline } from "./budgets/budget-checks.js";
import { getRemainingMs } from "./budgets/deadline.js";
import type { AnswerReask, UsableText } from "./reply-salvage.js";

/** One iteration's exchange with the LLM: what to ask next, and how many repairs are left. */
export interface Attempt {
  exchange: LlmMessage[];
  purpose: LlmPurpose;
  repairsLeft: number;
  lastError?: { code: string; message: string };
  argFill?: ArgFillRequest;
  /** Set after a final_response without a usable answer: the next reply is read as that answer. */
  answerReask?: AnswerReask;
  /** The latest thing the model said that could stand as its answer if repairs run out. */
  usableText?: UsableText;
  /** Plain-text replies so far in this iteration: a second one in a row is taken as the answer. */
  proseReplies?: number;
  /** The latest refused reply: the same one again ends the repairs (asking a third time is wasted). */
  lastRefused?: string;
}

/** One planning call's result: the reply, the run's end (deadline), or a cut-off stream to repair. */
export type CallResult =
  | { content: string; actionSeq: number; reasoning?: string; finishReason?: string }
  | { outcome: PlannerOutcome | Promise<PlannerOutcome> }
  | { interrupted: { partial: string; rejection: Rejection }; actionSeq: number };

/** The planning call's input: the messages (plus a repair exchange), the planner view, the options. */
export function createCallInput(run: RunContext, attempt: Attempt): LlmCallInput {
  const input: LlmCallInput = {
    messages:
      attempt.exchange.length === 0 ? run.messages.messages : run.messages.withExchange(attempt.exchange),
    purpose: attempt.purpose,
    plannerView: run.plannerView(attempt.lastError),
    streamAnswer: attempt.purpose !== "arg_fill",
  };
  const remaining = getRemainingMs(run);
  if (remaining !== undefined) input.timeoutMs = remaining;
  addReasoningOptions(run, input);
  return input;
}

/** The reply's text, its `action_seq`, the model's own reasoning when it sent some, why it ended. */
export function toCallResult(output: LlmCallOutput): CallResult {
  const { content, reasoning, finishReason } = output.result;
  const result: CallResult = { content, actionSeq: output.actionSeq };
  if (reasoning !== undefined && reasoning.length > 0) result.reasoning = reasoning;
  if (finishReason !== undefined) result.finishReason = finishReason;
  return result;
}

/** A deadline that passed during the call ends the run; a cut-off stream is repaired; the rest throws. */
export function fromCallError(run: RunContext, error: unknown): CallResult {
  if (error instanceof TimeoutError && !run.cancellation.aborted) {
    return { outcome: finishAtDeadline(run) };
  }
  if (isLlmError(error, "stream_interrupted") && !run.cancellation.aborted) {
    return { interrupted: interruptedRejection(error), actionSeq: run.state.actionSeq - 1 };
  }
  throw error;
}

/** The effort for planning calls (the router's under `auto`), and the routed model when it is a name. */
function addReasoningOptions(run: RunContext, input: LlmCallInput): void {
  const effort = resolveReasoningEffort(run.config.reasoningEffort, run.state.route?.effort);
  if (effort !== undefined) input.reasoningEffort = effort;
  if (run.routedModel !== undefined) input.model = run.routedModel;
}
