import type { JsonSchema, SpecIssue } from "@waddle/protocol";

/** Where the validator reports the agent's answer schema (`$.answerSchema`, `$.answerSchema.properties`, …). */
export const ANSWER_SCHEMA_PATH = "$.answerSchema";

/** The schema an agent starts with when its answer becomes an object: one required text field to edit. */
export function createAnswerSchema(): JsonSchema {
  return {
    type: "object",
    properties: { summary: { type: "string", description: "The answer in a sentence or two." } },
    required: ["summary"],
  };
}

/** The validation issues about the answer schema, so the Answer section can show them on the field. */
export function getAnswerSchemaIssues(issues: readonly SpecIssue[]): SpecIssue[] {
  return issues.filter(
    (issue) =>
      issue.path === ANSWER_SCHEMA_PATH ||
      issue.path.startsWith(`${ANSWER_SCHEMA_PATH}.`) ||
      issue.path.startsWith(`${ANSWER_SCHEMA_PATH}[`),
  );
}

/** True for an issue the Answer section shows, so revealing it opens Settings rather than the inspector. */
export function isAnswerSchemaIssue(issue: SpecIssue): boolean {
  return getAnswerSchemaIssues([issue]).length === 1;
}
