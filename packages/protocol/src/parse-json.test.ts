import { describe, expect, it } from "vitest";
import { parseJson, protoSafeReviver } from "./parse-json.js";

describe("parseJson", () => {
  it("gives the value of valid JSON, falsy values included", () => {
    expect(parseJson('{"a": [1, null]}')).toEqual({ ok: true, value: { a: [1, null] } });
    expect(parseJson("0")).toEqual({ ok: true, value: 0 });
    expect(parseJson("null")).toEqual({ ok: true, value: null });
  });

  it("says why anything else is not JSON, without throwing", () => {
    const parsed = parseJson("{a: 1}");
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatch(/JSON|property name/);
    expect(parseJson("").ok).toBe(false);
  });

  it("drops prototype keys with protoSafeReviver", () => {
    const text =
      '{"__proto__": {"admin": true}, "constructor": {"prototype": {"x": 1}}, "a": {"__proto__": 1}}';
    const parsed = parseJson(text, { reviver: protoSafeReviver });
    expect(parsed).toEqual({ ok: true, value: { a: {} } });
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
    expect(parseJson('{"constructor": "ok"}', { reviver: protoSafeReviver })).toEqual({
      ok: true,
      value: { constructor: "ok" },
    });
  });
});
