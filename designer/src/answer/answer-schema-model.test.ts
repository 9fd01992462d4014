import { validateAgentSpec, type SpecIssue } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { createDocumentStore } from "../store/document-store.js";
import { makeSpec } from "../testing/make-spec.js";
import { createAnswerSchema, getAnswerSchemaIssues, isAnswerSchemaIssue } from "./answer-schema-model.js";

const issue = (path: string): SpecIssue => ({
  severity: "error",
  code: "invalid_json_schema",
  path,
  message: "bad",
});

describe("createAnswerSchema", () => {
  it("starts a valid object schema the validator accepts as an agent's answerSchema", () => {
    const result = validateAgentSpec({ ...makeSpec(), answerSchema: createAnswerSchema() });
    expect(result.issues.filter((found) => found.path.startsWith("$.answerSchema"))).toEqual([]);
    expect(createAnswerSchema()).toMatchObject({ type: "object", required: ["summary"] });
  });
});

describe("getAnswerSchemaIssues", () => {
  it("keeps the issues at and under $.answerSchema, not the ones of other fields", () => {
    const issues = [
      issue("$.answerSchema"),
      issue("$.answerSchema.properties"),
      issue("$.answerSchemaOther"),
      issue("$.tools[0].argsSchema"),
    ];
    expect(getAnswerSchemaIssues(issues).map((found) => found.path)).toEqual([
      "$.answerSchema",
      "$.answerSchema.properties",
    ]);
    expect(isAnswerSchemaIssue(issue("$.answerSchema"))).toBe(true);
    expect(isAnswerSchemaIssue(issue("$.planner.maxIters"))).toBe(false);
  });

  it("finds the validator's own issue for a schema that is not an object", () => {
    const result = validateAgentSpec({ ...makeSpec(), answerSchema: { type: "string" } });
    expect(getAnswerSchemaIssues(result.issues)).toEqual([
      expect.objectContaining({ code: "schema_not_object", path: "$.answerSchema" }),
    ]);
  });
});

describe("editing the answer schema in the document", () => {
  it("adds and removes answerSchema through updateAgent, each step undoable", () => {
    const store = createDocumentStore({ spec: makeSpec() });
    store.getState().load({ spec: makeSpec(), agentId: "test-agent", version: 1 });
    const schema = createAnswerSchema();
    store.getState().dispatch({ type: "updateAgent", patch: { answerSchema: schema } });
    expect(store.getState().spec.answerSchema).toEqual(schema);
    store.getState().dispatch({ type: "updateAgent", patch: { answerSchema: undefined } });
    expect("answerSchema" in store.getState().spec).toBe(false);
    expect(store.getState().undo()).toBe(true);
    expect(store.getState().spec.answerSchema).toEqual(schema);
    expect(store.getState().undo()).toBe(true);
    expect("answerSchema" in store.getState().spec).toBe(false);
  });
});
