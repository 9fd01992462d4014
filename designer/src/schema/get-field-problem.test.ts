import { describe, expect, it } from "vitest";
import { getFieldProblem } from "./get-field-problem.js";
import { createField } from "./schema-fields.js";

describe("getFieldProblem", () => {
  it("flags a default outside the allowed values", () => {
    const field = { ...createField({ name: "n", type: "integer" }), enum: [1, 2, 3], default: 7 };
    expect(getFieldProblem(field)).toBe("The default 7 is not one of the allowed values.");
  });

  it("accepts a default among the allowed values, or either one alone", () => {
    const field = createField({ name: "mode", type: "string" });
    expect(getFieldProblem({ ...field, enum: ["fast", "slow"], default: "slow" })).toBeNull();
    expect(getFieldProblem({ ...field, default: "anything" })).toBeNull();
    expect(getFieldProblem({ ...field, enum: ["fast"] })).toBeNull();
    expect(getFieldProblem(field)).toBeNull();
  });
});
