import { describe, expect, it } from "vitest";
import { getPathPoint } from "./get-path-point.js";

describe("getPathPoint", () => {
  it("evaluates a cubic bezier path", () => {
    const path = "M0,0 C100,0 100,100 200,100";
    expect(getPathPoint(path, 0)).toEqual({ x: 0, y: 0 });
    expect(getPathPoint(path, 1)).toEqual({ x: 200, y: 100 });
    expect(getPathPoint(path, 0.5)).toEqual({ x: 100, y: 50 });
    expect(getPathPoint("M-10.5,2 L4,5", 0.5)).toEqual({ x: 4, y: 5 });
  });
});
