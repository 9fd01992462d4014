import { describe, expect, it } from "vitest";
import { readExpectText } from "./read-expect-text.js";

describe("readExpectText", () => {
  it("reads expectations, with the schema's defaults", () => {
    expect(readExpectText('{"status":"finished","trajectory":{"tools":["a","b"]}}')).toEqual({
      ok: true,
      expect: { status: "finished", trajectory: { tools: ["a", "b"], order: "exact" } },
    });
    expect(readExpectText("{}")).toEqual({ ok: true, expect: {} });
  });

  it("says what is wrong, with the path of the first problem", () => {
    const syntax = readExpectText('{"status": ');
    expect(syntax.ok).toBe(false);
    expect(!syntax.ok && syntax.message).toMatch(/^Not JSON: /);
    const order = readExpectText('{"trajectory":{"tools":[],"order":"sideways"}}');
    expect(!order.ok && order.message).toMatch(/^trajectory\.order: /);
    const unknown = readExpectText('{"answer":{"startsWith":"x"}}');
    expect(!unknown.ok && unknown.message).toMatch(/^answer: .*startsWith/);
  });
});
