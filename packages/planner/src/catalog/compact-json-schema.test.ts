import { describe, expect, it } from "vitest";
import { compactJsonSchema } from "./compact-json-schema.js";

describe("compactJsonSchema", () => {
  it("drops $schema, $id and additionalProperties: false, and nothing the LLM needs", () => {
    const schema = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      $id: "x",
      type: "object",
      properties: { $id: { type: "string" }, k: { type: "integer", default: 3, description: "How many" } },
      required: ["k"],
      additionalProperties: false,
      examples: [{ $id: "kept as data" }],
    };
    expect(compactJsonSchema(schema)).toEqual({
      type: "object",
      properties: { $id: { type: "string" }, k: { type: "integer", default: 3, description: "How many" } },
      required: ["k"],
      examples: [{ $id: "kept as data" }],
    });
    expect(schema.$schema).toBeDefined();
  });

  it("drops zod's safe-integer bounds and string-key propertyNames, keeps real bounds", () => {
    const schema = {
      type: "object",
      properties: {
        count: { type: "integer", minimum: -9007199254740991, maximum: 9007199254740991 },
        page: { type: "integer", minimum: 1, maximum: 9007199254740991 },
        small: { type: "integer", minimum: -2147483648, maximum: 2147483647 },
        tags: { type: "object", propertyNames: { type: "string" }, additionalProperties: { type: "number" } },
        codes: { type: "object", propertyNames: { type: "string", pattern: "^[A-Z]+$" } },
        minimum: { type: "number", minimum: 0, default: -9007199254740991 },
      },
    };
    expect(compactJsonSchema(schema)).toEqual({
      type: "object",
      properties: {
        count: { type: "integer" },
        page: { type: "integer", minimum: 1 },
        small: { type: "integer", minimum: -2147483648, maximum: 2147483647 },
        tags: { type: "object", additionalProperties: { type: "number" } },
        codes: { type: "object", propertyNames: { type: "string", pattern: "^[A-Z]+$" } },
        minimum: { type: "number", minimum: 0, default: -9007199254740991 },
      },
    });
  });

  it("drops a pattern beside a format only when asked (schemas zod wrote)", () => {
    const schema = {
      type: "object",
      properties: {
        email: { type: "string", format: "email", pattern: "^[^@]+@acme\\.com$" },
        id: { type: "string", pattern: "^rec_\\d+$" },
      },
    };
    expect(compactJsonSchema(schema)).toEqual(schema);
    expect(compactJsonSchema(schema, { dropFormatPatterns: true })).toEqual({
      type: "object",
      properties: {
        email: { type: "string", format: "email" },
        id: { type: "string", pattern: "^rec_\\d+$" },
      },
    });
  });
});
