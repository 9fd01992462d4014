import { describe, expect, it } from "vitest";
import { summarizeValue } from "./summarize-value.js";

describe("summarizeValue", () => {
  it("describes the shape in one short line", () => {
    expect(summarizeValue({ docs: [1, 2], fresh: true, title: "Refunds", meta: { a: 1 }, n: null })).toBe(
      '{docs: [2], fresh: true, title: "Refunds", meta: {…}, n: null}',
    );
    expect(summarizeValue([1, 2, 3])).toBe("3 items");
    expect(summarizeValue("text")).toBe('"text"');
    expect(summarizeValue({ a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7 })).toBe(
      "{a: 1, b: 2, c: 3, d: 4, e: 5, +2 more}",
    );
    expect(summarizeValue({ long: "x".repeat(100) }).length).toBeLessThan(80);
  });
});
