import { describe, expect, it } from "vitest";
import { computeBackoffDelay } from "./backoff-delay.js";

const policy = { backoffMs: 200, maxBackoffMs: 1_000 };

describe("computeBackoffDelay", () => {
  it("doubles the base per attempt and draws from its upper half", () => {
    const low = [1, 2, 3].map((attempt) => computeBackoffDelay({ attempt, policy, random: () => 0 }));
    const high = [1, 2, 3].map((attempt) =>
      computeBackoffDelay({ attempt, policy, random: () => 0.999_999 }),
    );
    expect(low).toEqual([100, 200, 400]);
    expect(high).toEqual([200, 400, 800]);
  });

  it("caps the base at maxBackoffMs", () => {
    expect(computeBackoffDelay({ attempt: 10, policy, random: () => 0.5 })).toBe(750);
    expect(computeBackoffDelay({ attempt: 1_000, policy, random: () => 0 })).toBe(500);
  });

  it("tolerates a random source out of range", () => {
    expect(computeBackoffDelay({ attempt: 1, policy, random: () => Number.NaN })).toBe(100);
    expect(computeBackoffDelay({ attempt: 1, policy, random: () => 7 })).toBe(200);
  });
});
