import type { JsonSchema } from "@waddle/protocol";
import type { CheckedAction } from "../../actions/action-checker.js";
import {
  checkStructuredAnswer,
  getAnswerRepairMessage,
  LAST_REPLY_CHARS,
} from "../../answer/answer-schema.js";
import { PlannerError } from "../../errors/planner-error.js";
import { createFinalPayload, markModelSources } from "../../run/final-payload.js";
import { createFailure } from "../../run/run-state.js";
import type { PlannerOutcome } from "../../run/run-types.js";
import { truncateText } from "../../util/create-preview.js";
import type { ActionDecision } from "../decision.js";
import type { RunContext } from "../run-context.js";
import { deliverAnswer } from "./guard-steps.js";

/**
 * A `final_response` of a run with an answer schema (docs/guides/structured-answers.md): an object valid
 * against it finishes the run, with the object as the payload's `data` and its JSON text as `answer`.
 * One that does not fit is refused with its errors, which the model reads as the failure of its step
 * and answers again, up to `repairAttempts` times; then the run fails with `answer_schema_failed`, the
 * last reply and its errors in the failure's details. An invalid object is never returned as the answer.
 */
export function finishWithStructuredAnswer(
  run: RunContext,
  input: { decision: ActionDecision; checked: Extract<CheckedAction, { kind: "final" }>; schema: JsonSchema },
): PlannerOutcome | Promise<PlannerOutcome> | undefined {
  const { decision, checked, schema } = input;
  const written = checked.args.answer ?? checked.args.raw_answer ?? "";
  const check = checkStructuredAnswer(schema, written);
  if (check.ok) {
    const payload = createFinalPayload({ ...checked.args, answer: check.text }, "", checked.invalid);
    payload.data = check.data;
    if (payload.sources.length > 0) payload.sources = markModelSources(payload.sources, run.state.steps);
    if (checked.salvaged !== undefined) payload.salvaged = { ...checked.salvaged };
    return deliverAnswer(run, "answer_complete", payload);
  }
  const refused = run.state.answerRepairs ?? 0;
  const message = getAnswerRepairMessage(check.errors);
  run.events.emit("repair_attempt", {
    kind: "answer_schema",
    attempt: refused + 1,
    error_code: "answer_schema_invalid",
    message,
    node: "final_response",
  });
  if (refused >= run.config.options.repairAttempts) {
    const tries = refused + 1;
    throw new PlannerError(
      "answer_schema_failed",
      `The model's answer did not fit the agent's answer schema after ${tries} attempt${tries === 1 ? "" : "s"}: ` +
        `${check.errors.join("; ")}. Make the schema easier to fill, describe its fields, or raise planner.repairAttempts.`,
      {
        details: {
          lastReply: truncateText(written, LAST_REPLY_CHARS),
          errors: check.errors,
          attempts: tries,
        },
      },
    );
  }
  run.state.answerRepairs = refused + 1;
  const failure = createFailure({
    node: "final_response",
    args: decision.action.args,
    errorCode: "answer_schema_invalid",
    message,
    suggestion: "Send final_response with args.answer a JSON object that the answer schema accepts.",
  });
  run.recordStep({ action: decision.action, source: decision.source, failure, refused: true });
  return undefined;
}
