import { describe, expect, it } from "vitest";
import type { GuardSpan } from "../guard-types.js";
import { GuardCheckError } from "./guard-check-error.js";
import {
  collectStrings,
  createSlicedScanner,
  DEFAULT_SLICE_CHARS,
  replaceStrings,
} from "./sliced-scanner.js";
import type { TextMatcher } from "./text-matcher.js";

/** A real matcher for the tests of the walker: every "needle", masked `[n]`, counting the texts it was given. */
function createNeedleMatcher(): TextMatcher & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    maxSpanChars: 6,
    findSpans(text) {
      calls.push(text);
      const spans: GuardSpan[] = [];
      for (let at = text.indexOf("needle"); at >= 0; at = text.indexOf("needle", at + 6)) {
        spans.push({ start: at, end: at + 6, kind: "needle" });
      }
      return spans;
    },
    getMask: () => "[n]",
  };
}

/** A yield that counts, and lets the scan go on at once (a microtask), so that tests need no timers. */
function createCountingYield() {
  const counter = { yields: 0, yieldToLoop: async () => void (counter.yields += 1) };
  return counter;
}

describe("createSlicedScanner", () => {
  it("walks every string of objects and arrays, keeps the shape and leaves keys, numbers and the input alone", async () => {
    const scanner = createSlicedScanner(createNeedleMatcher());
    const value = {
      title: "a needle here",
      "needle key": 4,
      nested: [{ text: "needle and needle" }, 42, null, true, ["no match", "needle"]],
      untouched: { deep: ["nothing"] },
    };
    const frozen = structuredClone(value);
    const result = await scanner.scan(value);
    expect(result.findings).toEqual([{ kind: "needle", count: 4 }]);
    expect(result.redacted).toEqual({
      title: "a [n] here",
      "needle key": 4,
      nested: [{ text: "[n] and [n]" }, 42, null, true, ["no match", "[n]"]],
      untouched: { deep: ["nothing"] },
    });
    expect(value).toEqual(frozen);
    // Parts without a finding are shared, not copied.
    expect((result.redacted as typeof value).untouched).toBe(value.untouched);
  });

  it("answers the same value and no findings when nothing matches, and scans a bare string", async () => {
    const scanner = createSlicedScanner(createNeedleMatcher());
    const value = { a: ["hay", { b: "stack" }] };
    expect(await scanner.scan(value)).toEqual({ findings: [], redacted: value });
    expect((await scanner.scan(value)).redacted).toBe(value);
    expect(await scanner.scan("one needle")).toEqual({
      findings: [{ kind: "needle", count: 1 }],
      redacted: "one [n]",
    });
    expect(await scanner.scan(12345)).toEqual({ findings: [], redacted: 12345 });
    expect(await scanner.scan(undefined)).toEqual({ findings: [], redacted: undefined });
  });

  it("keeps an own __proto__ key as a key when it rebuilds an object", async () => {
    const scanner = createSlicedScanner(createNeedleMatcher());
    const value = JSON.parse('{"__proto__": "needle", "x": "needle"}') as Record<string, unknown>;
    const redacted = (await scanner.scan(value)).redacted as Record<string, unknown>;
    expect(Object.getPrototypeOf(redacted)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(redacted, "__proto__")?.value).toBe("[n]");
  });

  it("finds a match across a slice boundary once, whole, not twice", async () => {
    const matcher = createNeedleMatcher();
    const { yields, yieldToLoop } = createCountingYield();
    const scanner = createSlicedScanner(matcher, { sliceChars: 100, yieldToLoop });
    // "needle" starts at 97: it crosses the boundary at 100, and the next window reads it again.
    const text = `${"x".repeat(97)}needle${"x".repeat(97)}`;
    const result = await scanner.scan(text);
    expect(matcher.calls.length).toBe(2);
    expect(matcher.calls[1]).toContain("needle");
    expect(result.findings).toEqual([{ kind: "needle", count: 1 }]);
    expect(result.redacted).toBe(`${"x".repeat(97)}[n]${"x".repeat(97)}`);
    expect(yields).toBe(0);
    expect(scanner.scanText(text)).toEqual([{ start: 97, end: 103, kind: "needle" }]);
  });

  it("yields to the event loop between slices: a 1 MB text is read in 33 slices of 32 KB with 32 yields", async () => {
    const counter = createCountingYield();
    const matcher = createNeedleMatcher();
    const scanner = createSlicedScanner(matcher, { yieldToLoop: counter.yieldToLoop });
    const text = `${"lorem ipsum ".repeat(87_381)}needle`; // 1,048,578 chars
    const result = await scanner.scan({ body: text });
    expect(DEFAULT_SLICE_CHARS).toBe(32 * 1024);
    expect(matcher.calls.length).toBe(33);
    expect(counter.yields).toBe(32);
    expect(Math.max(...matcher.calls.map((slice) => slice.length))).toBeLessThanOrEqual(32 * 1024 + 2 * 6);
    expect(result.findings).toEqual([{ kind: "needle", count: 1 }]);
  });

  it("yields across many small strings too, by the chars they hold", async () => {
    const counter = createCountingYield();
    const scanner = createSlicedScanner(createNeedleMatcher(), {
      sliceChars: 1_000,
      yieldToLoop: counter.yieldToLoop,
    });
    await scanner.scan(Array.from({ length: 1_000 }, () => "x".repeat(84)));
    // 1,000 strings of 84 chars plus 16 each: 100,000 chars of work, a yield every 1,000.
    expect(counter.yields).toBe(99);
  });

  it("stops with the signal's reason between slices", async () => {
    const controller = new AbortController();
    let yields = 0;
    const yieldToLoop = async () => {
      yields += 1;
      if (yields === 3) controller.abort(new Error("run cancelled"));
    };
    const matcher = createNeedleMatcher();
    const scanner = createSlicedScanner(matcher, { sliceChars: 1_000, yieldToLoop });
    await expect(scanner.scan("x".repeat(100_000), controller.signal)).rejects.toThrow("run cancelled");
    expect(matcher.calls.length).toBe(3);
    const aborted = AbortSignal.abort(new Error("already"));
    await expect(scanner.scan("needle", aborted)).rejects.toThrow("already");
  });

  it("throws guard_scan_limit past maxSpans rather than masking part of a value", async () => {
    const scanner = createSlicedScanner(createNeedleMatcher(), { maxSpans: 3 });
    const scan = scanner.scan(["needle needle", "needle needle"]);
    await expect(scan).rejects.toBeInstanceOf(GuardCheckError);
    await expect(scanner.scan(["needle needle", "needle needle"])).rejects.toMatchObject({
      code: "guard_scan_limit",
    });
  });

  it("refuses a value that contains itself, and walks shared (not circular) parts twice", async () => {
    const scanner = createSlicedScanner(createNeedleMatcher());
    const loop: Record<string, unknown> = { text: "needle" };
    loop.self = loop;
    await expect(scanner.scan(loop)).rejects.toMatchObject({ code: "unscannable_value" });
    const shared = { text: "needle" };
    expect((await scanner.scan({ a: shared, b: shared })).findings).toEqual([{ kind: "needle", count: 2 }]);
  });
});

describe("collectStrings and replaceStrings", () => {
  it("visit strings in the same order, so that indexes line up", () => {
    const value = { a: "1", b: ["2", { c: "3" }], d: 4, e: "5" };
    expect(collectStrings(value)).toEqual(["1", "2", "3", "5"]);
    expect(replaceStrings(value, new Map([[2, "three"]]))).toEqual({
      a: "1",
      b: ["2", { c: "three" }],
      d: 4,
      e: "5",
    });
  });
});
