import type { JsonSchema } from "@waddle/protocol";
import { useCallback, type ReactElement } from "react";
import { useDocument, useEditor } from "../editor/editor-context.js";
import { useValidation } from "../editor/use-validation.js";
import { SelectField } from "../components/fields.js";
import { Section } from "../components/section.js";
import { SchemaEditor } from "../inspector/schema-editor.js";
import { createAnswerSchema, getAnswerSchemaIssues } from "../answer/answer-schema-model.js";
import "../styles/answer-data.css";

type AnswerFormat = "text" | "object";

/** Settings → Answer: free text, or a JSON object the planner validates against the agent's answerSchema. */
export function AnswerSection(): ReactElement {
  const editor = useEditor();
  const answerSchema = useDocument((state) => state.spec.answerSchema);
  const issues = getAnswerSchemaIssues(useValidation().issues);
  const setSchema = useCallback(
    (schema: JsonSchema | undefined) =>
      editor.document
        .getState()
        .dispatch(
          { type: "updateAgent", patch: { answerSchema: schema } },
          { coalesceKey: "agent:answerSchema" },
        ),
    [editor],
  );
  const format: AnswerFormat = answerSchema ? "object" : "text";
  return (
    <Section title="Answer" summary={answerSchema ? "JSON object" : "Free text"} testId="answer-section">
      <SelectField<AnswerFormat>
        label="Answer format"
        value={format}
        options={[
          { value: "text", label: "Free text (no schema)" },
          { value: "object", label: "JSON object (answer schema)" },
        ]}
        hint={
          answerSchema
            ? "The final answer must be an object valid against this schema; the planner re-asks within its repair attempts, then fails with answer_schema_failed. Runs return it as data beside the text."
            : "The model answers in its own words. Choose JSON object when a program reads the answer."
        }
        testId="answer-format"
        onChange={(next) => {
          if (next === format) return;
          setSchema(next === "object" ? createAnswerSchema() : undefined);
        }}
      />
      {answerSchema ? (
        <div className={`field${issues.some((issue) => issue.severity === "error") ? " field-invalid" : ""}`}>
          <span className="field-label">Answer fields</span>
          <SchemaEditor
            schema={answerSchema}
            onChange={setSchema}
            testId="answer-schema"
            emptyText="No declared fields: any object is accepted."
          />
          {issues.length > 0 ? (
            <ul className="issue-list compact" data-testid="answer-schema-issues">
              {issues.map((issue) => (
                <li key={`${issue.path} ${issue.code}`} className={`issue-row is-${issue.severity}`}>
                  <span className="issue-message">{issue.message}</span> <code>{issue.path}</code>
                </li>
              ))}
            </ul>
          ) : null}
          <button
            type="button"
            className="btn btn-ghost btn-small answer-schema-remove"
            data-testid="answer-schema-remove"
            onClick={() => setSchema(undefined)}
          >
            Remove the schema (answer in free text)
          </button>
        </div>
      ) : null}
    </Section>
  );
}
