import { describe, expect, it } from "vitest";
import { parseJson } from "./parse-json.js";

describe("parseJson", () => {
  it("gives the value of valid JSON, falsy values included", () => {
    expect(parseJson('{"a": [1, null]}')).toEqual({ ok: true, value: { a: [1, null] } });
    expect(parseJson("0")).toEqual({ ok: true, value: 0 });
    expect(parseJson("null")).toEqual({ ok: true, value: null });
  });

  it("gives the syntax error of anything else, without throwing", () => {
    const result = parseJson("{'a': 1}");
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toBeInstanceOf(SyntaxError);
    expect(parseJson("").ok).toBe(false);
  });
});
