import { describe, expect, it } from "vitest";
import { getConfirmReason, getSchemaErrors } from "./tool-test-dialog.js";

describe("Run tool: what is checked before anything is sent", () => {
  const schema = {
    type: "object",
    properties: { city: { type: "string", minLength: 2 }, days: { type: "integer", maximum: 7 } },
    required: ["city"],
  };

  it("names each field the schema refuses, with zod's issue", () => {
    const errors = getSchemaErrors(schema, { city: "X", days: 9 });
    expect(Object.keys(errors).sort()).toEqual(["city", "days"]);
    expect(errors.city).toMatch(/2/);
    expect(getSchemaErrors(schema, { city: "Oslo", days: 3 })).toEqual({});
    expect(getSchemaErrors(schema, {})).toHaveProperty("city");
  });

  it("asks first for write, external and stateful tools and for those that require approval", () => {
    expect(getConfirmReason({ sideEffects: "read", requiresApproval: false })).toBeNull();
    expect(getConfirmReason({ sideEffects: "pure", requiresApproval: true })).toMatch(/approval/);
    for (const sideEffects of ["write", "external", "stateful"] as const) {
      expect(getConfirmReason({ sideEffects, requiresApproval: false })).toMatch(sideEffects);
    }
  });
});
