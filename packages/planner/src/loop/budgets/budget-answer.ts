import type { FinishReason, PlannerAction } from "@waddle/protocol";
import { INFERRED_ANSWER_RULES, readAnswerReply } from "../../actions/read-answer-reply.js";
import { createFallbackPayload, createFinalPayload, markModelSources } from "../../run/final-payload.js";
import type { PlannerOutcome } from "../../run/run-types.js";
import { deliverAnswer } from "../steps/guard-steps.js";
import type { ConstraintName, RunContext } from "../run-context.js";
import { reportSalvages } from "../salvage-report.js";
import { ANSWER_TURN_MIN_MS } from "./deadline.js";

/**
 * A budget that ends the run ends it with an answer (docs/budgets.md): the model gets one turn, without
 * tools, to write it from what it has; the run finishes with the budget's reason and that answer
 * (`requires_followup`). Only when the turn fails (an error, no answer in the reply, less than a second
 * before the deadline) does the run end with the canned message and the latest result.
 */
export async function finishWithAnswerTurn(
  run: RunContext,
  input: { constraint: ConstraintName | undefined; message: string; reason: FinishReason; hint?: string },
): Promise<PlannerOutcome> {
  const { constraint, message, reason } = input;
  // A stuck run has no budget behind it: its own event (`stuck_detected`) says why it ends.
  if (constraint !== undefined)
    run.events.emit("constraint_violation", { constraint, message, enforced: "finished" });
  const canned = () => deliverAnswer(run, reason, createFallbackPayload({ message, steps: run.state.steps }));
  const deadlineAt = run.state.deadlineAt;
  const left = deadlineAt === undefined ? undefined : deadlineAt - run.config.clock();
  if (left !== undefined && left < ANSWER_TURN_MIN_MS) return canned();
  if (run.signal.aborted) return run.finishCancelled();
  run.events.emit("step_start", { source: "llm" });
  const instruction = JSON.stringify({
    constraint: { hint: constraint ?? input.hint, message },
    instruction:
      "No more tool calls. Write your final answer now from what you have found so far, saying what is " +
      'missing: {"next_node": "final_response", "args": {"answer": "…"}}.',
  });
  const call = run.llmCaller.begin({
    messages: run.messages.withExchange([{ role: "user", content: instruction }]),
    purpose: "answer",
    plannerView: run.plannerView({ code: "answer_now", message }),
    ...(left === undefined ? {} : { timeoutMs: left }),
  });
  let content: string;
  let finishReason: string | undefined;
  try {
    const output = run.llmCaller.finish(call, await call.reply);
    ({ content, finishReason } = output.result);
  } catch {
    run.llmCaller.abort(call);
    return run.signal.aborted ? run.finishCancelled() : canned();
  }
  const reply = readAnswerReply(content, {
    format: run.config.options.actionFormat,
    toolNames: run.config.toolNames,
    finishReason,
  });
  // The budget turn is the run's last word: a cut-off reply's text is shown, marked as cut off.
  const read =
    reply.kind === "cut_off" && reply.fragment !== undefined
      ? { kind: "answer" as const, answer: reply.fragment.answer, args: {}, note: reply.fragment.note }
      : reply;
  if (read.kind !== "answer") return canned();
  const action: PlannerAction = { next_node: "final_response", args: { ...read.args, answer: read.answer } };
  if (read.note !== undefined)
    reportSalvages(run, [read.note], { node: action.next_node, actionSeq: call.actionSeq });
  run.emitAction(action, "llm", call.actionSeq);
  // Only the answer and texts kept beside it (`extra`): the other args are the model's unchecked guesses.
  const extra = read.args.extra;
  const payload = createFinalPayload({ answer: read.answer, ...(extra === undefined ? {} : { extra }) }, "");
  payload.requires_followup = true;
  const sources = read.args.sources;
  if (Array.isArray(sources) && sources.every((source) => typeof source === "object" && source !== null)) {
    payload.sources = markModelSources(sources as Record<string, unknown>[], run.state.steps);
  }
  if (read.note !== undefined && INFERRED_ANSWER_RULES.has(read.note.rule))
    payload.salvaged = { ...read.note };
  return deliverAnswer(run, reason, payload);
}
