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
});
