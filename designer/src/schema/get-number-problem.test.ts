import { describe, expect, it } from "vitest";
import { getNumberProblem } from "./get-number-problem.js";

describe("getNumberProblem", () => {
  it("accepts a number inside its limits", () => {
    expect(getNumberProblem(2, { integer: true, min: 0, max: 10 })).toBeNull();
    expect(getNumberProblem(0.5, { exclusiveMin: 0 })).toBeNull();
  });

  it("says which limit a number breaks", () => {
    expect(getNumberProblem(1.5, { integer: true })).toBe("Enter a whole number.");
    expect(getNumberProblem(-1, { min: 0 })).toBe("At least 0.");
    expect(getNumberProblem(11, { max: 10 })).toBe("At most 10.");
    expect(getNumberProblem(0, { exclusiveMin: 0 })).toBe("More than 0.");
    expect(getNumberProblem(1, { exclusiveMax: 1 })).toBe("Less than 1.");
  });
});
