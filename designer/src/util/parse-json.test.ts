import { describe, expect, it } from "vitest";
import { parseJson } from "./parse-json.js";

describe("parseJson", () => {
  it("reads JSON", () => {
    expect(parseJson('{"a": [1, null]}')).toEqual({ ok: true, value: { a: [1, null] } });
  });

  it("says where text that is not JSON broke, without throwing", () => {
    const parsed = parseJson("{a: 1}");
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatch(/JSON|property name/);
  });
});
