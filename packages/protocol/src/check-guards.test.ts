import { describe, expect, it } from "vitest";
import { validateAgentSpec } from "./validate-agent-spec.js";

const base = {
  version: 1,
  id: "guarded",
  name: "Guarded",
  tools: [{ name: "lookup", desc: "Looks up", impl: { kind: "mock", output: {} } }],
};

function errorsOf(guards: unknown[]): { path: string; code: string; message: string }[] {
  const result = validateAgentSpec({ ...base, guards });
  return result.issues.filter((issue) => issue.severity === "error");
}

describe("validateAgentSpec: guards", () => {
  it("accepts a guard of every stage and fills its defaults", () => {
    const result = validateAgentSpec({
      ...base,
      guards: [
        { name: "pii", on: "tool_result", check: { kind: "pii" }, action: "redact", tools: ["lookup"] },
        {
          name: "words",
          on: "input",
          check: { kind: "deny_words", words: ["a+b"], regex: true },
          action: "block",
        },
        { name: "long", on: "output", check: { kind: "max_length", chars: 10 }, action: "redact" },
      ],
    });
    expect(result.ok).toBe(true);
    expect(result.spec?.guards[0]).toMatchObject({ onError: "block", timeoutMs: 10_000 });
  });

  it("names the path of an unknown check kind", () => {
    const errors = errorsOf([{ name: "x", on: "input", check: { kind: "telepathy" }, action: "block" }]);
    expect(errors[0]?.path).toBe("$.guards[0].check.kind");
  });

  it("refuses a regex that does not compile, naming the word", () => {
    const errors = errorsOf([
      {
        name: "x",
        on: "input",
        check: { kind: "deny_words", words: ["ok", "(unclosed"], regex: true },
        action: "block",
      },
    ]);
    expect(errors).toEqual([
      expect.objectContaining({ path: "$.guards[0].check.words[1]", code: "invalid_value" }),
    ]);
    expect(errors[0]?.message).toContain("not a valid regular expression");
  });

  it("refuses a tools entry naming no tool, and tools on another stage", () => {
    const errors = errorsOf([
      { name: "a", on: "tool_result", check: { kind: "secrets" }, action: "block", tools: ["nope"] },
      { name: "b", on: "output", check: { kind: "secrets" }, action: "block", tools: ["lookup"] },
    ]);
    expect(errors.map((error) => [error.path, error.code])).toEqual([
      ["$.guards[0].tools[0]", "unknown_tool"],
      ["$.guards[1].tools", "invalid_value"],
    ]);
  });

  it("refuses redact on a check that finds nothing to mask, and duplicate names", () => {
    const errors = errorsOf([
      { name: "a", on: "output", check: { kind: "llm", prompt: "Is it polite?" }, action: "redact" },
      { name: "a", on: "output", check: { kind: "secrets" }, action: "flag" },
    ]);
    expect(errors.map((error) => [error.path, error.code])).toEqual([
      ["$.guards[0].action", "invalid_value"],
      ["$.guards[1].name", "duplicate_id"],
    ]);
  });

  it("refuses a json_schema check whose schema is not JSON Schema", () => {
    const errors = errorsOf([
      {
        name: "a",
        on: "output",
        check: { kind: "json_schema", schema: { type: "nonsense" } },
        action: "block",
      },
    ]);
    expect(errors[0]).toMatchObject({ path: "$.guards[0].check.schema", code: "invalid_json_schema" });
  });
});
