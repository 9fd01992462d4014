import { describe, expect, it } from "vitest";
import { compactValue, getValueDigest, clipText } from "./compact-value.js";
import { parseLlmJson } from "../llm/parse-llm-json.js";
import { estimateJsonTokens, estimateTokens } from "./token-estimate.js";

const limits = { maxString: 5, maxArray: 2, maxKeys: 2, maxDepth: 2 };

describe("compactValue", () => {
  it("cuts strings, arrays and objects and says how much was left", () => {
    expect(compactValue("abcdefgh", limits)).toBe("abcde…[+3 chars]");
    expect(compactValue([1, 2, 3, 4], limits)).toEqual([1, 2, "…[+2 items]"]);
    expect(compactValue({ a: 1, b: 2, c: 3 }, limits)).toEqual({ a: 1, b: 2, "…": "+1 keys" });
    expect(compactValue({ a: { b: { c: 1 } }, l: [[1]] }, limits)).toEqual({
      a: { b: "{…1 keys}" },
      l: ["[…1 items]"],
    });
  });

  it("returns JSON-safe values", () => {
    const circular: Record<string, unknown> = { a: 1 };
    circular["self"] = circular;
    expect(compactValue(circular)).toEqual({ a: 1, self: "[circular]" });
    expect(compactValue({ n: Number.NaN, b: 10n, u: undefined, f: () => 1 })).toEqual({
      n: null,
      b: "10",
      f: null,
    });
    expect(compactValue(new Date(0))).toBe("1970-01-01T00:00:00.000Z");
  });

  it("digests on one line", () => {
    expect(getValueDigest({ text: "a\nb" }, 100)).toBe('{"text":"a\\nb"}');
    expect(getValueDigest("a\n  b", 100)).toBe("a b");
    expect(getValueDigest("x".repeat(50), 10)).toBe(`${"x".repeat(9)}…`);
    expect(clipText("abc", 0)).toBe("");
  });
});

describe("estimateTokens", () => {
  it("counts about four characters per token, plus framing per message", () => {
    expect(estimateTokens("")).toBe(0);
    expect(estimateTokens("abcd")).toBe(1);
    expect(estimateTokens("abcde")).toBe(2);
    expect(estimateTokens([{ content: "abcd" }, { content: "" }])).toBe(1 + 4 + 0 + 4);
    expect(estimateJsonTokens({ a: 1 })).toBe(2);
    expect(estimateJsonTokens(undefined)).toBe(0);
  });
});

describe("parseLlmJson", () => {
  it("reads a bare object, a fenced one, or one inside prose", () => {
    expect(parseLlmJson('{"a":1}')).toEqual({ a: 1 });
    expect(parseLlmJson('```json\n{"a":1}\n```')).toEqual({ a: 1 });
    expect(parseLlmJson('Here it is: {"a":{"b":2}} hope it helps')).toEqual({ a: { b: 2 } });
    expect(parseLlmJson("not json")).toBeUndefined();
    expect(parseLlmJson("{broken")).toBeUndefined();
  });
});
