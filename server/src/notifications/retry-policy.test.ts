import { describe, expect, it } from "vitest";
import {
  DEFAULT_RETRY_POLICY,
  getBackoffMs,
  getNextState,
  isRetryable,
  parseRetryAfter,
} from "./retry-policy.js";

const policy = DEFAULT_RETRY_POLICY;
const response = (status: number, retryAfterMs?: number) =>
  ({ kind: "response", status, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) }) as const;

describe("retry policy", () => {
  it("retries a network error, a timeout, 5xx, 408 and 429; stops on another answer or a refusal", () => {
    expect(isRetryable({ kind: "network", message: "ECONNREFUSED" })).toBe(true);
    for (const status of [500, 502, 503, 599, 408, 429]) expect(isRetryable(response(status))).toBe(true);
    for (const status of [400, 401, 403, 404, 410, 422, 301])
      expect(isRetryable(response(status))).toBe(false);
    expect(isRetryable({ kind: "refused", message: "host not allowed" })).toBe(false);
  });

  it("doubles the wait from the base up to the cap, keeping a random half of it (equal jitter)", () => {
    const low = (attempts: number) => getBackoffMs(attempts, policy, () => 0);
    const high = (attempts: number) => getBackoffMs(attempts, policy, () => 1);
    expect([1, 2, 3, 4].map(high)).toEqual([5_000, 10_000, 20_000, 40_000]);
    expect([1, 2, 3, 4].map(low)).toEqual([2_500, 5_000, 10_000, 20_000]);
    expect(high(30)).toBe(3_600_000);
    expect(low(30)).toBe(1_800_000);
    expect(getBackoffMs(3, policy, () => 0.5)).toBe(15_000);
  });

  it("moves an entry on: delivered on 2xx, pending with its due time, failed on 4xx or past 24 hours", () => {
    const base = { createdAtMs: 0, nowMs: 1_000, policy, random: () => 1 };
    expect(getNextState({ ...base, result: response(204), attempts: 1 })).toEqual({
      state: "delivered",
      nextAttemptAtMs: null,
    });
    expect(getNextState({ ...base, result: response(503), attempts: 2 })).toEqual({
      state: "pending",
      nextAttemptAtMs: 11_000,
    });
    expect(getNextState({ ...base, result: response(404), attempts: 1 })).toEqual({
      state: "failed",
      nextAttemptAtMs: null,
    });
    const late = { ...base, nowMs: 24 * 3_600_000 - 1_000 };
    expect(getNextState({ ...late, result: response(500), attempts: 20 }).state).toBe("failed");
    // A 429 asking for longer than the backoff is waited for (up to the cap).
    expect(getNextState({ ...base, result: response(429, 120_000), attempts: 1 }).nextAttemptAtMs).toBe(
      121_000,
    );
  });

  it("reads Retry-After as seconds or as an HTTP date", () => {
    expect(parseRetryAfter("30", 0)).toBe(30_000);
    expect(parseRetryAfter(new Date(90_000).toUTCString(), 30_000)).toBe(60_000);
    expect(parseRetryAfter("soon", 0)).toBeUndefined();
    expect(parseRetryAfter(null, 0)).toBeUndefined();
  });
});
