import { describe, expect, it } from "vitest";
import { getPredecessor } from "./get-predecessor.js";

describe("getPredecessor", () => {
  it("is the newest version before, skipping gaps, and null for the first", () => {
    expect(getPredecessor(5, [7, 5, 3, 1])).toBe(3);
    expect(getPredecessor(1, [1, 2])).toBeNull();
    expect(getPredecessor(9, [])).toBeNull();
  });
});
