import type { FinalPayload, FinishReason } from "@waddle/protocol";
import { checkStructuredAnswer, LAST_REPLY_CHARS } from "../../answer/answer-schema.js";
import { PlannerError } from "../../errors/planner-error.js";
import { truncateText } from "../../util/create-preview.js";
import type { RunContext } from "../run-context.js";

/**
 * A run with an answer schema that ends another way than a fitting `final_response` (a budget, `max_iters`,
 * `stuck`, `no_path`): its last answer is kept as data when it fits the schema; otherwise the run fails
 * `answer_schema_failed` with that text, so that a caller who asked for an object never gets prose as if it
 * were one. Answers already checked (`data` set) and cancelled runs pass as they are.
 */
export function fitAnswerSchema(run: RunContext, reason: FinishReason, payload: FinalPayload): FinalPayload {
  const schema = run.state.answerSchema;
  if (schema === undefined || payload.data !== undefined || reason === "cancelled") return payload;
  const check = checkStructuredAnswer(schema, payload.answer);
  if (check.ok) return { ...payload, answer: check.text, data: check.data };
  throw new PlannerError(
    "answer_schema_failed",
    `The run ended (${reason}) before the model wrote an answer that fits the agent's answer schema: ` +
      `${check.errors.join("; ")}. Raise the run's limits, or make the schema easier to fill.`,
    { details: { lastReply: truncateText(payload.answer, LAST_REPLY_CHARS), errors: check.errors, reason } },
  );
}
