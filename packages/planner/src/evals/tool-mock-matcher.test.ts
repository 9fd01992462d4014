import { describe, expect, it } from "vitest";
import { isJsonEqual, ToolMockMatcher } from "./tool-mock-matcher.js";

describe("ToolMockMatcher", () => {
  it("serves a tool's mocks in order, args compared exactly", () => {
    const matcher = new ToolMockMatcher([
      { tool: "search", args: { q: "a" }, output: 1 },
      { tool: "search", args: { q: "a" }, output: 2 },
      { tool: "search", args: { q: "b" }, output: 3 },
    ]);
    expect(matcher.take("search", { q: "b" })?.mock.output).toBe(3);
    expect(matcher.take("search", { q: "a" })?.mock.output).toBe(1);
    expect(matcher.take("search", { q: "a" })?.mock.output).toBe(2);
    expect(matcher.take("search", { q: "a" })).toBeUndefined();
    expect(matcher.take("search", { q: "a", extra: 1 })).toBeUndefined();
    expect(matcher.getUnused()).toEqual([]);
  });

  it('matches any args with "any", and never another tool', () => {
    const matcher = new ToolMockMatcher([
      { tool: "fetch", args: "any", output: "x" },
      { tool: "other", args: {}, output: "y" },
    ]);
    expect(matcher.take("store", {})).toBeUndefined();
    expect(matcher.take("fetch", { url: "anything", n: [1, 2] })).toEqual({
      mock: { tool: "fetch", args: "any", output: "x" },
      index: 0,
    });
    expect(matcher.take("fetch", {})).toBeUndefined();
    expect(matcher.getUnused()).toEqual([{ tool: "other", args: {}, output: "y" }]);
  });
});

describe("isJsonEqual", () => {
  it("ignores key order and undefined members, not array order or types", () => {
    expect(isJsonEqual({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 })).toBe(true);
    expect(isJsonEqual({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(isJsonEqual([1, 2], [2, 1])).toBe(false);
    expect(isJsonEqual({ a: "1" }, { a: 1 })).toBe(false);
    expect(isJsonEqual(null, {})).toBe(false);
    expect(isJsonEqual([], {})).toBe(false);
  });
});
