import { describe, expect, it } from "vitest";
import {
  getArgsFormFields,
  getArgsFormValues,
  hasArgsFields,
  readArgsForm,
  readArgsJson,
} from "./args-form-model.js";

const schema = {
  type: "object",
  properties: {
    to: { type: "string", minLength: 3, pattern: "@" },
    body: { type: "string" },
    priority: { type: "string", enum: ["low", "high"] },
    retries: { type: "integer", minimum: 0, maximum: 3 },
    score: { type: "number", exclusiveMaximum: 1 },
    urgent: { type: "boolean" },
    cc: { type: "array", items: { type: "string" }, maxItems: 2 },
    meta: { type: "object", properties: { a: { type: "string" } } },
    anything: {},
  },
  required: ["to", "body", "urgent"],
};

describe("getArgsFormFields", () => {
  it("makes one field per property with the right control", () => {
    const fields = getArgsFormFields(schema, { body: "Hi" });
    expect(fields.map((field) => [field.name, field.kind, field.required])).toEqual([
      ["to", "string", true],
      ["body", "text", true],
      ["priority", "enum", false],
      ["retries", "integer", false],
      ["score", "number", false],
      ["urgent", "boolean", true],
      ["cc", "lines", false],
      ["meta", "json", false],
      ["anything", "json", false],
    ]);
    expect(fields.find((field) => field.name === "meta")?.jsonType).toBe("object");
    expect(hasArgsFields(schema)).toBe(true);
    expect(hasArgsFields({ type: "object" })).toBe(false);
  });

  it("reads a nullable type list by its first real type", () => {
    const [field] = getArgsFormFields({ properties: { n: { type: ["null", "integer"] } } });
    expect(field?.kind).toBe("integer");
  });
});

describe("getArgsFormValues and readArgsForm", () => {
  const fields = getArgsFormFields(schema);
  const proposed = {
    to: "dana@example.com",
    body: "Hello",
    priority: "high",
    retries: 2,
    urgent: true,
    cc: ["a@x", "b@x"],
    meta: { a: "1" },
    extra: "kept",
  };

  it("prefills with the proposed args and reads them back unchanged", () => {
    const values = getArgsFormValues(fields, proposed);
    expect(values).toMatchObject({
      to: "dana@example.com",
      priority: "1",
      retries: "2",
      urgent: "true",
      cc: "a@x\nb@x",
    });
    expect(readArgsForm({ fields, values, base: proposed })).toEqual({ ok: true, args: proposed });
  });

  it("starts a required boolean at false", () => {
    expect(getArgsFormValues(fields, {}).urgent).toBe("false");
  });

  it("leaves out optional fields left empty", () => {
    const values = { ...getArgsFormValues(fields, proposed), retries: "", cc: "\n", meta: "  " };
    const result = readArgsForm({ fields, values });
    expect(result.ok && Object.keys(result.args).sort()).toEqual(["body", "priority", "to", "urgent"]);
  });

  it("says what is wrong with each field", () => {
    const values = {
      ...getArgsFormValues(fields, proposed),
      to: "da",
      body: "",
      retries: "4",
      score: "1",
      cc: "a\nb\nc",
      meta: "[1]",
      anything: "{oops",
    };
    const result = readArgsForm({ fields, values });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual({
      to: "At least 3 characters.",
      body: "Required.",
      retries: "At most 3.",
      score: "Less than 1.",
      cc: "At most 2 items.",
      meta: "Must be a JSON object.",
      anything: expect.stringMatching(/^Not valid JSON/),
    });
  });

  it("checks types and patterns", () => {
    const values = { ...getArgsFormValues(fields, proposed), to: "nobody", retries: "1.5", priority: "" };
    const result = readArgsForm({ fields, values });
    expect(result.ok ? null : result.errors).toEqual({
      to: "Must match @.",
      retries: '"1.5" is not a whole number.',
    });
  });
});

describe("readArgsJson", () => {
  it("takes a JSON object only", () => {
    expect(readArgsJson('{"a": 1}')).toEqual({ ok: true, args: { a: 1 } });
    expect(readArgsJson("[1]")).toEqual({ ok: false, error: "The args must be a JSON object." });
    expect(readArgsJson("{").ok).toBe(false);
  });
});
