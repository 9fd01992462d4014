import { describe, expect, it } from "vitest";
import { REDACTED, redactText } from "../secrets/redact-text.js";
import { createPreview, truncateText, walkPreview } from "./create-preview.js";

describe("createPreview", () => {
  it("returns small JSON values structurally equal", () => {
    const value = { a: 1, b: "two", c: [true, null, { d: 3.5 }] };
    expect(createPreview(value, { maxChars: 1000 })).toEqual(value);
  });

  it("cuts long strings with the number of dropped characters", () => {
    const preview = createPreview("x".repeat(500), { maxChars: 100 }) as string;
    expect(preview.startsWith("x".repeat(100))).toBe(true);
    expect(preview.endsWith("…[+400 chars]")).toBe(true);
  });

  it("stays bounded for large arrays and objects", () => {
    const big = {
      items: Array.from({ length: 10_000 }, (_, index) => ({ index, text: "lorem ipsum dolor" })),
    };
    const preview = createPreview(big, { maxChars: 500 });
    expect(JSON.stringify(preview).length).toBeLessThan(1200);
    const items = (preview as { items: unknown[] }).items;
    expect(items[items.length - 1]).toMatch(/^…\[\+\d+ items\]$/);
    const wide = Object.fromEntries(Array.from({ length: 1000 }, (_, index) => [`key${index}`, index]));
    const widePreview = createPreview(wide, { maxChars: 200 }) as Record<string, unknown>;
    expect(widePreview["…"]).toMatch(/^\+\d+ keys$/);
  });

  it("makes non-JSON values JSON-safe", () => {
    const cyclic: Record<string, unknown> = { name: "loop" };
    cyclic.self = cyclic;
    const preview = createPreview(
      {
        when: new Date(0),
        error: new Error("boom"),
        big: 10n,
        fn: function namedFn() {},
        nan: Number.NaN,
        missing: undefined,
        list: [undefined],
        map: new Map([["k", 1]]),
        set: new Set([1, 2]),
        cyclic,
      },
      { maxChars: 1000 },
    );
    expect(preview).toEqual({
      when: "1970-01-01T00:00:00.000Z",
      error: { name: "Error", message: "boom" },
      big: "10n",
      fn: "[function namedFn]",
      nan: "NaN",
      list: [null],
      map: { k: 1 },
      set: [1, 2],
      cyclic: { name: "loop", self: "[circular]" },
    });
    expect(() => JSON.stringify(preview)).not.toThrow();
  });

  it("limits depth", () => {
    let deep: unknown = "bottom";
    for (let index = 0; index < 20; index += 1) deep = { deep };
    expect(JSON.stringify(createPreview(deep, { maxChars: 10_000, maxDepth: 3 }))).toBe(
      '{"deep":{"deep":{"deep":"[depth]"}}}',
    );
  });

  it("redacts strings equal to a secret and long secrets inside strings", () => {
    const secrets = new Set(["sk-live-123456", "ab"]);
    const preview = createPreview(
      { key: "sk-live-123456", header: "Bearer sk-live-123456", short: "ab", word: "abc" },
      { maxChars: 1000, redact: secrets },
    );
    expect(preview).toEqual({ key: REDACTED, header: `Bearer ${REDACTED}`, short: REDACTED, word: "abc" });
  });

  it("keeps a __proto__ key as plain data", () => {
    const value = JSON.parse('{"__proto__": {"polluted": true}}') as unknown;
    const preview = createPreview(value, { maxChars: 100 }) as Record<string, unknown>;
    expect(Object.prototype.hasOwnProperty.call(preview, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("createPreview's fast path for small plain values", () => {
  it("gives what the full walk gives, at every budget around the cut", () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    const values: unknown[] = [
      { query: "renewal terms 12", limit: 5 },
      { id: "rec_3", fields: ["title", "owner"], nested: { deep: [1, [2, [3]]], flag: false } },
      [12.5, 7, null, "x".repeat(40)],
      { ok: true, missing: undefined, list: [1, undefined] },
      { when: new Date(0), n: Number.NaN },
      { secret: "sk-live-123456 inside", short: "ab" },
      JSON.parse('{"__proto__": {"polluted": true}, "b": 1}') as unknown,
      cyclic,
      "a plain string that is rather long for a small budget",
    ];
    const redact = new Set(["sk-live-123456", "ab"]);
    for (const value of values) {
      for (let maxChars = 0; maxChars <= 120; maxChars += 1) {
        for (const maxDepth of [1, 2, 8]) {
          const options = { maxChars, maxDepth, redact };
          expect(createPreview(value, options)).toStrictEqual(walkPreview(value, options));
        }
      }
    }
  });

  it("copies rather than shares the value", () => {
    const value = { list: [1, 2], inner: { a: "b" } };
    const preview = createPreview(value, { maxChars: 1000 }) as typeof value;
    expect(preview).toEqual(value);
    expect(preview).not.toBe(value);
    expect(preview.list).not.toBe(value.list);
    expect(preview.inner).not.toBe(value.inner);
  });
});

describe("truncateText and redactText", () => {
  it("truncates only when needed", () => {
    expect(truncateText("short", 10)).toBe("short");
    expect(truncateText("abcdef", 3)).toBe("abc…[+3 chars]");
  });

  it("replaces every occurrence", () => {
    expect(redactText("tok123456 and tok123456", new Set(["tok123456"]))).toBe(`${REDACTED} and ${REDACTED}`);
  });
});
