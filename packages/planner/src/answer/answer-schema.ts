import { type JsonSchema, parseJson, type PlannerAction } from "@waddle/protocol";
import { z } from "zod";
import { parseLlmJson } from "../llm/parse-llm-json.js";
import { formatIssues } from "../util/format-issues.js";

/** What a structured answer check found: the object, or why the answer is not one the schema accepts. */
export type StructuredAnswerCheck =
  { ok: true; data: Record<string, unknown>; text: string } | { ok: false; errors: string[] };

/** The last reply kept in an `answer_schema_failed` failure, at most this long. */
export const LAST_REPLY_CHARS = 4_000;

type Validator = z.ZodType;
const validators = new WeakMap<JsonSchema, Validator>();

/**
 * The zod validator of a JSON Schema (the protocol validates specs' schemas the same way), cached per
 * schema object: the answer schema and `json_schema` guards. Throws for a schema zod cannot read.
 */
export function getSchemaValidator(schema: JsonSchema): Validator {
  let validator = validators.get(schema);
  if (validator === undefined) {
    validator = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
    validators.set(schema, validator);
  }
  return validator;
}

/**
 * Checks a final answer against the run's answer schema: the answer must be the JSON text of an object
 * valid against it. The object comes back as `data` with its canonical JSON text; never an invalid one.
 */
export function checkStructuredAnswer(schema: JsonSchema, answer: string): StructuredAnswerCheck {
  const parsed = parseJson(answer.trim());
  const value = parsed.ok ? parsed.value : parseLlmJson(answer);
  if (value === undefined) {
    const why = parsed.ok ? "" : ` (${parsed.error})`;
    return { ok: false, errors: [`(root): the answer is not JSON${why}: write the object itself`] };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { ok: false, errors: [`(root): the answer must be a JSON object, not ${describe(value)}`] };
  }
  let validator: Validator;
  try {
    validator = getSchemaValidator(schema);
  } catch (error) {
    return { ok: false, errors: [`the answer schema cannot be used: ${(error as Error).message}`] };
  }
  const result = validator.safeParse(value);
  if (!result.success) {
    return { ok: false, errors: formatIssues(result.error.issues).split("; ") };
  }
  // The value checked, not zod's output: a schema's defaults or coercions never rewrite the answer.
  const data = value as Record<string, unknown>;
  return { ok: true, data, text: JSON.stringify(data) };
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return "an array";
  if (value === null) return "null";
  return `a ${typeof value}`;
}

/**
 * The answer object a model wrote in its reply as an object (`{"args": {"answer": {…}}}`), before the
 * action's normalization turns object answers into text; undefined when the answer is not an object.
 */
export function readAnswerObject(content: string): Record<string, unknown> | undefined {
  const reply = parseLlmJson(content);
  if (!isRecord(reply)) return undefined;
  const args = isRecord(reply.args) ? reply.args : reply;
  const answer = args.answer ?? args.raw_answer;
  return isRecord(answer) ? answer : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A run's `final_response` with the answer the model wrote as an object, as that object's JSON text: the
 * action's normalization reads object answers as text (`{"text": …}` → its text), which would lose it.
 */
export function keepAnswerObject(action: PlannerAction, content: string): void {
  if (action.next_node !== "final_response") return;
  const written = readAnswerObject(content);
  if (written !== undefined) action.args = { ...action.args, answer: JSON.stringify(written) };
}

/** The system prompt of a run: the planner's, and the answer format when the run has an answer schema. */
export function getRunSystemPrompt(systemPrompt: string, schema: JsonSchema | undefined): string {
  return schema === undefined ? systemPrompt : `${systemPrompt}\n\n${getAnswerSchemaPrompt(schema)}`;
}

/** Added to the system prompt of a run with an answer schema. */
export function getAnswerSchemaPrompt(schema: JsonSchema): string {
  return [
    "Answer format: this agent's answer is data for a program, not prose.",
    'In final_response, args.answer must be one JSON object valid against the JSON Schema below: {"next_node": "final_response", "args": {"answer": {…the object…}}}.',
    "Fill every required field with the right type, from what the tools returned; add no field the schema does not allow.",
    `Answer schema: ${JSON.stringify(schema)}`,
  ].join("\n");
}

/** The repair message of an answer that does not fit: the errors, and what to send instead. */
export function getAnswerRepairMessage(errors: readonly string[]): string {
  return (
    `The answer does not fit the answer schema: ${errors.join("; ")}. ` +
    "Reply final_response again with args.answer a JSON object valid against the answer schema in the system prompt."
  );
}
