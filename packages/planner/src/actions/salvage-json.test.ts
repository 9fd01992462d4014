import { describe, expect, it } from "vitest";
import {
  closeTruncated,
  findObjectRegions,
  rewritePythonLiteral,
  salvageJsonValues,
} from "./salvage-json.js";

describe("salvageJsonValues", () => {
  it("returns clean JSON directly and decodes double-encoded JSON once", () => {
    expect(salvageJsonValues(' {"a": 1} ')).toEqual([{ value: { a: 1 }, path: "direct" }]);
    expect(salvageJsonValues(JSON.stringify('{"a": 1}'))).toEqual([
      { value: { a: 1 }, path: "double_encoded" },
    ]);
    expect(salvageJsonValues('"just text"')).toEqual([{ value: "just text", path: "direct" }]);
  });

  it("finds fenced blocks first, then objects in prose, each once", () => {
    const text = 'Plan: {"a": 1}\n```json\n{"b": 2}\n```\nand {"a": 1}';
    expect(salvageJsonValues(text)).toEqual([
      { value: { b: 2 }, path: "fenced" },
      { value: { a: 1 }, path: "embedded" },
    ]);
  });

  it("reads Python literals and closes a cut-off object", () => {
    expect(salvageJsonValues("Sure: {'a': None, 'b': [True, False,],}")).toEqual([
      { value: { a: null, b: [true, false] }, path: "python_literal" },
    ]);
    expect(salvageJsonValues('{"a": {"b": "cut')).toEqual([
      { value: { a: { b: "cut" } }, path: "truncated" },
    ]);
    expect(salvageJsonValues("no json at all")).toEqual([]);
  });
});

describe("helpers", () => {
  it("rewritePythonLiteral keeps words inside strings and escapes quotes", () => {
    expect(rewritePythonLiteral(`{'t': 'None of "these" True', 'x': None}`)).toBe(
      '{"t": "None of \\"these\\" True", "x": null}',
    );
    expect(rewritePythonLiteral("{'open: 1}")).toBeUndefined();
  });

  it("findObjectRegions ignores braces in strings and reports an unclosed tail", () => {
    expect(findObjectRegions('x {"a": "}"} y {"b": {')).toEqual([
      { text: '{"a": "}"}', closed: true },
      { text: '{"b": {', closed: false },
    ]);
  });

  it("closeTruncated drops a dangling key and refuses mismatched brackets", () => {
    expect(closeTruncated('{"a": [1, 2')).toBe('{"a": [1, 2]}');
    expect(closeTruncated('{"a": 1, "b')).toBe('{"a": 1}');
    expect(closeTruncated('{"a": ]')).toBeUndefined();
  });
});
