import type { PlannerAction } from "@waddle/protocol";
import { fillOfflineArgs } from "./offline-args.js";
import type { Observed } from "./offline-progress.js";

type Schema = Record<string, unknown>;

/** Text fields that read as the answer itself: they get the offline answer rather than the query. */
const ANSWER_NAMES = /^(answer|summary|text|result|response|message|reply|explanation|report|content)$/i;

/**
 * The offline model's `final_response` for a run with an answer schema: the answer becomes an object that
 * fits it, filled as tool args are (`fillOfflineArgs`: fields of the same name in the latest results,
 * defaults, enum values, typed values for the required rest), with answer-like text fields given the
 * answer it would have written. Without a schema the action is returned as it is.
 */
export function shapeOfflineAnswer(
  action: PlannerAction,
  input: { schema: Schema | undefined; query: string; observations: readonly Observed[] },
): PlannerAction {
  const { schema } = input;
  if (schema === undefined || action.next_node !== "final_response") return action;
  const written = typeof action.args.answer === "string" ? action.args.answer : "";
  const data = fillOfflineArgs({
    argsSchema: schema,
    query: input.query,
    observations: input.observations,
    forceRequired: true,
  });
  const properties = (schema.properties ?? {}) as Record<string, Schema | undefined>;
  for (const [name, value] of Object.entries(data)) {
    const field = properties[name];
    const isText = field?.type === "string" && field.enum === undefined && field.format === undefined;
    if (isText && written.length > 0 && ANSWER_NAMES.test(name) && value === input.query) {
      data[name] = typeof field.maxLength === "number" ? written.slice(0, field.maxLength) : written;
    }
  }
  return { ...action, args: { ...action.args, answer: data } };
}
