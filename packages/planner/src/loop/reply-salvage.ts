// The action planner's answers for replies that cannot be taken as they are (docs/empty-final-answer.md,
// docs/repair-and-arg-fill.md): the answer re-ask, a prose or fragment answer, an arg-fill that failed.
import type { PlannerAction } from "@waddle/protocol";
import { checkAction, type CheckedAction, type Rejection } from "../actions/action-checker.js";
import type { ArgFillRequest, InterpretedReply } from "../actions/interpret-reply.js";
import {
  getProseAnswer,
  extractAnswerFragment,
  INFERRED_ANSWER_RULES,
  readAnswerReply,
} from "../actions/read-answer-reply.js";
import { createSalvageNote, type SalvageNote } from "../actions/salvage-rules.js";
import type { Decision } from "./decision.js";
import { createFallbackPayload } from "../run/final-payload.js";
import type { RunContext } from "./run-context.js";
import { deliverAnswer } from "./steps/guard-steps.js";
import { reportSalvages } from "./salvage-report.js";

type FinalCheck = Extract<CheckedAction, { kind: "final" }>;

/** A `final_response` without a usable answer, re-asked once: the reply is read as its answer. */
export interface AnswerReask {
  action: PlannerAction;
  fallback: FinalCheck;
}

/** Text the model said that can stand as its answer if nothing better comes (prose, an answer fragment). */
export interface UsableText {
  answer: string;
  note: SalvageNote;
}

/**
 * The reply to an answer re-ask: an answer in any shape finishes the run with it; a whole other action
 * (a tool call) goes on as any reply (undefined); nothing usable finishes with the final_response as it
 * was, without an answer (its fallback), so a hopeless finish costs two calls. A cut-off reply is nothing
 * usable (PenguiFlow's finish repair parses it to none): the text it had is kept under
 * `extra.cut_off_answer`, never shown as the answer.
 */
export function settleAnswerReask(
  run: RunContext,
  input: { reask: AnswerReask; content: string; finishReason: string | undefined; actionSeq: number },
): Decision | undefined {
  const { reask, actionSeq } = input;
  const read = readAnswerReply(input.content, {
    format: run.config.options.actionFormat,
    toolNames: run.config.toolNames,
    finishReason: input.finishReason,
  });
  if (read.kind === "action") return undefined;
  if (read.kind === "none" || read.kind === "cut_off") {
    const fragment = read.kind === "cut_off" ? read.fragment?.answer : undefined;
    const checked =
      fragment === undefined ? reask.fallback : keepCutOffAnswer(run, { reask, fragment, actionSeq });
    run.emitAction(reask.action, "llm", actionSeq);
    return { kind: "action", action: reask.action, checked, source: "llm", actionSeq };
  }
  const action: PlannerAction = {
    next_node: "final_response",
    args: { ...reask.fallback.args, ...reask.fallback.invalid, ...read.args, answer: read.answer },
  };
  return decideAnswer(run, { action, note: read.note, actionSeq });
}

/** The re-ask's fallback with the text of a cut-off reply kept under `extra`, and said so. */
function keepCutOffAnswer(
  run: RunContext,
  input: { reask: AnswerReask; fragment: string; actionSeq: number },
): FinalCheck {
  const { fallback } = input.reask;
  const given = fallback.args.extra;
  const extra =
    typeof given === "object" && given !== null && !Array.isArray(given)
      ? given
      : given === undefined
        ? {}
        : { extra: given };
  const note = createSalvageNote(
    "cut_off_answer_kept",
    "the reply to the answer re-ask was cut off, so it is no answer; its text is kept under extra.cut_off_answer",
  );
  reportSalvages(run, [note], { node: "final_response", actionSeq: input.actionSeq });
  return { ...fallback, args: { ...fallback.args, extra: { ...extra, cut_off_answer: input.fragment } } };
}

/** A final answer the planner took from what the model said, with its `action_salvaged` event. */
export function decideAnswer(
  run: RunContext,
  input: { action: PlannerAction; note: SalvageNote | undefined; actionSeq: number },
): Decision {
  const { action, note, actionSeq } = input;
  const result = checkAction(action, run.checkContext());
  const checked: FinalCheck =
    result.ok && result.checked.kind === "final"
      ? result.checked
      : { kind: "final", args: { answer: String(action.args.answer ?? "") } };
  const inferred = note !== undefined && INFERRED_ANSWER_RULES.has(note.rule);
  if (inferred) {
    checked.salvaged = note;
    checked.args = { ...checked.args, requires_followup: true };
  }
  const notes: SalvageNote[] = note === undefined ? [] : [note];
  if (result.ok && result.notes !== undefined) notes.push(...result.notes);
  reportSalvages(run, notes, { node: "final_response", actionSeq });
  run.emitAction(action, "llm", actionSeq);
  return { kind: "action", action, checked, source: "llm", actionSeq };
}

/**
 * What a reply that could not be taken said that may stand as the answer: prose with no JSON, or the
 * `"answer": "…` text of a malformed or cut-off reply. Undefined for anything else (a bad tool call).
 */
export function findUsableText(content: string, interpreted: InterpretedReply): UsableText | undefined {
  if (interpreted.ok) return undefined;
  const fragment = extractAnswerFragment(content);
  if (fragment !== undefined) {
    const cut = interpreted.code === "truncated_reply";
    return {
      answer: fragment,
      note: {
        rule: "answer_fragment",
        detail: cut
          ? 'the reply was cut off: its "answer" text so far was kept, marked as salvaged'
          : 'the "answer" text of a reply that is not valid JSON was kept, marked as salvaged',
      },
    };
  }
  if (interpreted.code !== "unparseable_action") return undefined;
  return getProseAnswer(content);
}

/** Finishes on text the model said (prose, a fragment), marked as salvaged and needing a follow-up. */
export function decideUsableText(run: RunContext, text: UsableText, actionSeq: number): Decision {
  const action: PlannerAction = { next_node: "final_response", args: { answer: text.answer } };
  return decideAnswer(run, { action, note: text.note, actionSeq });
}

/**
 * An arg-fill that did not give the fields (prose, placeholders, still missing): a person is asked for
 * them (`await_input`), or, with pauses off, the run ends `no_path` naming the fields and the tool.
 */
export function askForFields(
  run: RunContext,
  input: { fill: ArgFillRequest; rejection: Rejection | undefined; args: Record<string, unknown> },
): Decision {
  const { fill } = input;
  const missing = input.rejection?.argFill?.missing ?? [...(fill.missing ?? [])];
  const fields = missing.length === 0 ? "its args" : missing.join(", ");
  const tool = fill.node;
  if (run.config.options.pauseEnabled === false) {
    const message =
      `To call ${tool} I need ${fields}, which I could not work out. Please give ${missing.length === 1 ? "it" : "them"} ` +
      "and ask again.";
    const payload = createFallbackPayload({ message, steps: run.state.steps });
    return { kind: "outcome", outcome: deliverAnswer(run, "no_path", payload) };
  }
  return {
    kind: "pause",
    reason: "await_input",
    pauseKind: "arg_input",
    action: { next_node: tool, args: input.args },
    payload: {
      tool,
      args: input.args,
      missing,
      ...(missing[0] === undefined ? {} : { field: missing[0] }),
      message:
        `${tool} needs ${fields}, which the model could not provide. Answer with the value ` +
        `(approve with userInput${missing.length > 1 ? " holding a JSON object of the fields" : ""}), or edit ` +
        "with the whole args; reject to let the model go on without the call.",
    },
  };
}
