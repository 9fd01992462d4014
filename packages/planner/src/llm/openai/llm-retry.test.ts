import { describe, expect, it } from "vitest";
import { getBackoffMs, parseRetryAfterMs } from "./llm-retry.js";

const headers = (values: Record<string, string>) => new Headers(values);

describe("parseRetryAfterMs", () => {
  it("prefers retry-after-ms, then seconds, then an HTTP date", () => {
    expect(parseRetryAfterMs(headers({ "retry-after-ms": "250", "retry-after": "9" }))).toBe(250);
    expect(parseRetryAfterMs(headers({ "retry-after": "1.5" }))).toBe(1500);
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(parseRetryAfterMs(headers({ "retry-after": "Thu, 01 Jan 2026 00:00:07 GMT" }), now)).toBe(7000);
    expect(parseRetryAfterMs(headers({ "retry-after": "Wed, 31 Dec 2025 00:00:00 GMT" }), now)).toBe(0);
  });

  it("returns undefined for nothing usable", () => {
    expect(parseRetryAfterMs(undefined)).toBeUndefined();
    expect(parseRetryAfterMs(headers({}))).toBeUndefined();
    expect(parseRetryAfterMs(headers({ "retry-after": "soon" }))).toBeUndefined();
  });
});

describe("getBackoffMs", () => {
  it("doubles up to the cap, jittering at most 25 % down", () => {
    const policy = { baseMs: 100, maxMs: 500 };
    for (const [retry, nominal] of [
      [0, 100],
      [1, 200],
      [2, 400],
      [5, 500],
    ] as const) {
      const delay = getBackoffMs(retry, policy);
      expect(delay).toBeGreaterThanOrEqual(nominal * 0.75);
      expect(delay).toBeLessThanOrEqual(nominal);
    }
  });
});
