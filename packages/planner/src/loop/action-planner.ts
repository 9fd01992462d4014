import type { PlannerAction } from "@waddle/protocol";
import { checkAction, type CheckResult, type Rejection } from "../actions/action-checker.js";
import { redactText } from "../secrets/redact-text.js";
import { truncateText } from "../util/create-preview.js";
import { createFallbackPayload } from "../run/final-payload.js";
import { compactHistory } from "./steps/history-compactor.js";
import { interpretReply, type ArgFillRequest, type InterpretedReply } from "../actions/interpret-reply.js";
import type { LlmMessage } from "../llm/llm-client.js";
import type { RunContext } from "./run-context.js";
import { deliverAnswer } from "./steps/guard-steps.js";
import { getRejectionText, parseRejection } from "../actions/rejections.js";
import {
  createCallInput,
  fromCallError,
  toCallResult,
  type Attempt,
  type CallResult,
} from "./planning-call.js";
import { createReflectSummary } from "../trajectory/reflection.js";
import { createFailure } from "../run/run-state.js";
import type { Decision } from "./decision.js";
import { askForFields, decideUsableText, findUsableText, settleAnswerReask } from "./reply-salvage.js";
import { reportSalvages } from "./salvage-report.js";
import { checkCostAfterCall, checkPromptBudget } from "./budgets/budget-checks.js";
import { keepAnswerObject } from "../answer/answer-schema.js";

/** Bad replies are echoed back this short in repair exchanges. */
const ECHO_CHARS = 2_000;

/**
 * Asks the LLM for the next action and validates it, re-asking with short machine messages: repairs for
 * unparseable or invalid replies (`repairAttempts`), arg-fill for missing fields only, one correction per
 * soft hint. Ends the run when the deadline, cost ceiling, token budget or `maxConsecutiveArgFailures` say so.
 */
export async function planWithLlm(run: RunContext): Promise<Decision> {
  const tokenBudget = run.config.options.tokenBudget;
  if (tokenBudget !== undefined && run.messages.estimatedTokens > tokenBudget) {
    await compactHistory(run, tokenBudget);
  }
  const budget = checkPromptBudget(run);
  if (budget !== undefined) return { kind: "outcome", outcome: budget };
  run.events.emit("step_start", { source: "llm" });
  const attempt: Attempt = { exchange: [], purpose: "plan", repairsLeft: run.config.options.repairAttempts };
  for (;;) {
    // The reply is awaited here rather than in a helper (`LlmCaller.call`): one async frame less per step.
    const call = run.llmCaller.begin(createCallInput(run, attempt));
    let reply: CallResult;
    try {
      reply = toCallResult(run.llmCaller.finish(call, await call.reply));
    } catch (error) {
      run.llmCaller.abort(call);
      reply = fromCallError(run, error);
    }
    if ("outcome" in reply) return { kind: "outcome", outcome: await reply.outcome };
    if ("interrupted" in reply) {
      const next = afterInterrupted(run, {
        attempt,
        interrupted: reply.interrupted,
        actionSeq: reply.actionSeq,
      });
      if (next !== undefined) return next;
      continue;
    }
    const { content, actionSeq } = reply;
    if (attempt.answerReask !== undefined) {
      const reask = attempt.answerReask;
      delete attempt.answerReask;
      const settled = settleAnswerReask(run, { reask, content, finishReason: reply.finishReason, actionSeq });
      if (settled !== undefined) return settled;
    }
    const interpreted = interpretReply(content, {
      format: run.config.options.actionFormat,
      toolNames: run.config.toolNames,
      argFill: attempt.argFill,
      finishReason: reply.finishReason,
    });
    if (interpreted.ok) emitReflection(run, reply.reasoning ?? interpreted.thought);
    if (interpreted.ok && run.state.answerSchema !== undefined) keepAnswerObject(interpreted.action, content);
    const result = interpreted.ok ? checkAction(interpreted.action, run.checkContext()) : undefined;
    // After a call that reached the cost ceiling only an answer is still taken: it is already paid for.
    const overCost =
      result?.ok === true && result.checked.kind === "final" ? undefined : checkCostAfterCall(run);
    if (overCost !== undefined) return { kind: "outcome", outcome: overCost };
    if (result?.ok === true && interpreted.ok) {
      if (result.checked.kind === "tool") run.state.consecutiveArgFailures = 0;
      return acceptAction(run, { interpreted, result, content, actionSeq });
    }
    const rejection: Rejection = result?.ok === false ? result.rejection : parseRejection(interpreted);
    if (attempt.argFill !== undefined) {
      const asked = afterArgFillReply(run, { fill: attempt.argFill, interpreted, rejection });
      if (asked !== undefined) return asked;
    }
    const usable = findUsableText(content, interpreted);
    if (usable !== undefined) {
      // A second plain-text reply in a row, after being asked for JSON: the model is answering.
      const prose = usable.note.rule === "prose_answer";
      if (prose && (attempt.proseReplies ?? 0) > 0) return decideUsableText(run, usable, actionSeq);
      if (prose) attempt.proseReplies = (attempt.proseReplies ?? 0) + 1;
      attempt.usableText = usable;
    } else attempt.proseReplies = 0;
    // docs/repair-and-arg-fill.md: the very reply just refused, sent again, will not be mended by asking again.
    const refused = content.trim();
    if (attempt.lastRefused === refused) attempt.repairsLeft = 0;
    attempt.lastRefused = refused;
    const next = afterRejection(run, {
      attempt,
      rejection,
      action: interpreted.ok ? interpreted.action : undefined,
      actionSeq,
    });
    if (next !== undefined) return next;
    attempt.exchange = [
      { role: "assistant", content: truncateText(content, ECHO_CHARS) },
      { role: "user", content: rejection.message },
    ];
  }
}

/** A checked action: its salvage events, `action`, and the remarks its step shows the model. */
function acceptAction(
  run: RunContext,
  input: {
    interpreted: Extract<InterpretedReply, { ok: true }>;
    result: Extract<CheckResult, { ok: true }>;
    content: string;
    actionSeq: number;
  },
): Decision {
  const { interpreted, result, actionSeq } = input;
  const { action } = interpreted;
  if (interpreted.notes.length > 0 || result.notes !== undefined) {
    const notes = result.notes === undefined ? interpreted.notes : [...interpreted.notes, ...result.notes];
    reportSalvages(run, notes, { node: action.next_node, actionSeq });
  }
  run.emitAction(action, "llm", actionSeq);
  const decision: Decision = { kind: "action", action, checked: result.checked, source: "llm", actionSeq };
  if (interpreted.verbatim) decision.reply = input.content;
  if (interpreted.alternates !== undefined || interpreted.droppedSteps !== undefined) {
    decision.remarks = {
      ...(interpreted.alternates === undefined ? {} : { alternates_not_run: interpreted.alternates }),
      ...(interpreted.droppedSteps === undefined ? {} : { dropped_steps: interpreted.droppedSteps }),
    };
  }
  return decision;
}

/**
 * The reply to an arg-fill request, when it did not complete the call: the same tool with its fields
 * still missing or invalid (placeholders, wrong types), or no action at all (prose, cut off). A person is
 * asked for the fields then, after at most two calls (docs/repair-and-arg-fill.md); another action, or a
 * refusal that is not about the args, goes on as any reply (undefined).
 */
function afterArgFillReply(
  run: RunContext,
  input: { fill: ArgFillRequest; interpreted: InterpretedReply; rejection: Rejection },
): Decision | undefined {
  const { fill, interpreted, rejection } = input;
  if (interpreted.ok && (interpreted.action.next_node !== fill.node || rejection.argFailure !== true)) {
    return undefined;
  }
  const given = interpreted.ok ? (rejection.argFill?.args ?? interpreted.action.args) : fill.args;
  return askForFields(run, { fill, rejection: interpreted.ok ? rejection : undefined, args: given });
}

/** A stream cut off mid-reply: reported as a repair, then re-asked with the partial reply echoed. */
function afterInterrupted(
  run: RunContext,
  input: { attempt: Attempt; interrupted: { partial: string; rejection: Rejection }; actionSeq: number },
): Decision | undefined {
  const { attempt, interrupted } = input;
  const next = afterRejection(run, {
    attempt,
    rejection: interrupted.rejection,
    action: undefined,
    actionSeq: input.actionSeq,
  });
  if (next !== undefined) return next;
  const ask: LlmMessage = { role: "user", content: interrupted.rejection.message };
  attempt.exchange =
    interrupted.partial.length === 0
      ? [ask]
      : [{ role: "assistant", content: truncateText(interrupted.partial, ECHO_CHARS) }, ask];
  return undefined;
}

/** Reports a rejection and decides: re-ask (undefined), give up on this iteration, or end the run. */
function afterRejection(
  run: RunContext,
  input: { attempt: Attempt; rejection: Rejection; action: PlannerAction | undefined; actionSeq: number },
): Decision | undefined {
  const { attempt, rejection, action } = input;
  const { options } = run.config;
  reportRejection(run, rejection, options.repairAttempts - attempt.repairsLeft + 1);
  if (rejection.argFailure === true) run.state.consecutiveArgFailures += 1;
  if (run.state.consecutiveArgFailures >= options.maxConsecutiveArgFailures)
    return forcedFinish(run, { rejection, attempt, actionSeq: input.actionSeq });
  if (rejection.softKeys !== undefined) {
    run.state.corrections.push(...rejection.softKeys);
  } else if (attempt.repairsLeft <= 0) {
    return exhausted(run, { rejection, action, actionSeq: input.actionSeq, attempt });
  } else {
    attempt.repairsLeft -= 1;
  }
  attempt.purpose = rejection.purpose;
  attempt.lastError = { code: rejection.code, message: rejection.message };
  if (rejection.argFill === undefined) delete attempt.argFill;
  else {
    const { node, args, missing } = rejection.argFill;
    const tool = run.config.catalog.get(node);
    attempt.argFill =
      tool === undefined ? { node, args, missing } : { node, args, missing, argsSchema: tool.argsSchema };
  }
  if (rejection.code === "missing_answer" && rejection.fallback?.kind === "final" && action !== undefined) {
    attempt.answerReask = { action, fallback: rejection.fallback };
  }
  return undefined;
}

function exhausted(
  run: RunContext,
  input: { rejection: Rejection; action: PlannerAction | undefined; actionSeq: number; attempt: Attempt },
): Decision {
  const { rejection, action } = input;
  if (rejection.fallback !== undefined && action !== undefined) {
    run.emitAction(action, "llm", input.actionSeq);
    return { kind: "action", action, checked: rejection.fallback, source: "llm", actionSeq: input.actionSeq };
  }
  // Repairs used up: what the model did say (prose, an answer fragment) ends the run, marked as salvaged.
  const usable = input.attempt.usableText;
  if (usable !== undefined) return decideUsableText(run, usable, input.actionSeq);
  if (
    rejection.code === "disallowed_node" &&
    rejection.node !== undefined &&
    run.config.options.pauseEnabled !== false
  ) {
    // The model keeps needing a tool the hints forbid: a person has to relax the hints.
    const message = `The model keeps choosing ${rejection.node}, which disallow_nodes forbids.`;
    return {
      kind: "pause",
      reason: "constraints_conflict",
      payload: {
        conflicts: [{ kind: "disallowed_required", nodes: [rejection.node], message }],
        message: "The planning hints block what the model needs: relax them and resume, or change the agent.",
      },
    };
  }
  if (rejection.argFailure !== true) run.state.consecutiveArgFailures += 1;
  if (run.state.consecutiveArgFailures >= run.config.options.maxConsecutiveArgFailures)
    return forcedFinish(run, input);
  const refused: PlannerAction = action ?? { next_node: "invalid_reply", args: {} };
  const failure = createFailure({
    node: refused.next_node,
    args: refused.args,
    errorCode: rejection.code,
    message: getRejectionText(rejection),
    suggestion: "Choose a valid action: a tool from the catalog with valid args, or final_response.",
  });
  return { kind: "refused", action: refused, source: "llm", failure };
}

/**
 * `maxConsecutiveArgFailures` reached: finish with `requires_followup` instead of looping
 * (docs/repair-and-arg-fill.md); with what the model said when it said something usable, else `no_path`.
 */
function forcedFinish(
  run: RunContext,
  input: { rejection: Rejection; attempt: Attempt; actionSeq: number },
): Decision {
  const { rejection } = input;
  const usable = input.attempt.usableText;
  if (usable !== undefined) return decideUsableText(run, usable, input.actionSeq);
  const limit = run.config.options.maxConsecutiveArgFailures;
  const message =
    `I could not produce a valid action after ${limit} consecutive attempts` +
    `${rejection.node === undefined ? "" : ` (${rejection.node})`}: ${getRejectionText(rejection)} ` +
    "Please rephrase the request or give the missing details.";
  const payload = createFallbackPayload({ message, steps: run.state.steps });
  return { kind: "outcome", outcome: deliverAnswer(run, "no_path", payload) };
}

function reportRejection(run: RunContext, rejection: Rejection, attemptNumber: number): void {
  if (rejection.constraint !== undefined) {
    const data = { ...rejection.constraint, message: getRejectionText(rejection) };
    run.events.emit("constraint_violation", data);
  }
  if (rejection.repairKind !== undefined) {
    const data = {
      kind: rejection.repairKind,
      attempt: attemptNumber,
      error_code: rejection.code,
      message: getRejectionText(rejection),
    };
    run.events.emit(
      "repair_attempt",
      rejection.node === undefined ? data : { ...data, node: rejection.node },
    );
  }
}

/**
 * `[Reflect]` (docs/native-reasoning.md): one short sentence from the model's native reasoning, else from a legacy
 * `thought`. The raw reasoning itself only goes out on the thinking channel of `llm_stream_chunk`.
 */
function emitReflection(run: RunContext, text: string | undefined): void {
  if (text === undefined || text.trim().length === 0) return;
  if (!run.events.enabled) return run.events.skip();
  run.events.emit("reasoning", {
    phase: "reflect",
    summary: redactText(createReflectSummary(text), run.secrets),
  });
}
