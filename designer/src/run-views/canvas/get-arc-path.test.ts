import { describe, expect, it } from "vitest";
import { getArcPath } from "./get-arc-path.js";

describe("getArcPath", () => {
  it("bows a forward arc above the line and a backward one below", () => {
    const forward = getArcPath({ sourceX: 0, sourceY: 100, targetX: 400, targetY: 100 });
    expect(forward.path).toBe("M 0,100 Q 200,-12 400,100");
    expect(forward.labelY).toBeLessThan(100);
    const backward = getArcPath({ sourceX: 400, sourceY: 100, targetX: 0, targetY: 100 });
    expect(backward.labelY).toBeGreaterThan(100);
  });

  it("keeps a short arc visibly curved and a long one bounded", () => {
    expect(getArcPath({ sourceX: 0, sourceY: 0, targetX: 10, targetY: 0 }).labelY).toBe(-24);
    expect(getArcPath({ sourceX: 0, sourceY: 0, targetX: 5000, targetY: 0 }).labelY).toBe(-80);
  });
});
