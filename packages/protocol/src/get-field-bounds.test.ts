import { describe, expect, it } from "vitest";
import { z } from "zod";
import { PlannerOptions, TasksOptions } from "./agent-spec.js";
import { getFieldBounds, getNumberBounds } from "./get-field-bounds.js";

describe("getNumberBounds", () => {
  it("reads an integer's bounds through default and optional", () => {
    expect(getNumberBounds(z.int().min(0).max(10).default(2))).toEqual({ integer: true, min: 0, max: 10 });
    expect(getNumberBounds(z.int().min(1).optional())).toEqual({ integer: true, min: 1 });
  });

  it("makes an integer's exclusive bound inclusive and leaves out the safe-integer range", () => {
    expect(getNumberBounds(z.int().positive())).toEqual({ integer: true, min: 1 });
    expect(getNumberBounds(z.int().lt(5))).toEqual({ integer: true, max: 4 });
    expect(getNumberBounds(z.int())).toEqual({ integer: true });
  });

  it("keeps a decimal's exclusive bound exclusive", () => {
    expect(getNumberBounds(z.number().positive().max(86_400))).toEqual({
      integer: false,
      exclusiveMin: 0,
      max: 86_400,
    });
    expect(getNumberBounds(z.number().nonnegative().optional())).toEqual({ integer: false, min: 0 });
  });

  it("gives no bounds for a schema that is no number", () => {
    expect(getNumberBounds(z.string().max(20))).toEqual({ integer: false });
  });
});

describe("getFieldBounds", () => {
  it("lists the bounds of each field of the planner options", () => {
    const bounds = getFieldBounds(PlannerOptions);
    expect(bounds.repairAttempts).toEqual({ integer: true, min: 0, max: 10 });
    expect(bounds.deadlineS).toEqual({ integer: false, exclusiveMin: 0 });
    expect(bounds.argFill).toEqual({ integer: false });
    expect(getFieldBounds(TasksOptions).timeoutS).toEqual({ integer: false, exclusiveMin: 0, max: 86_400 });
  });
});
