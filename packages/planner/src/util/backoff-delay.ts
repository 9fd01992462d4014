import type { RetryPolicy } from "@waddle/protocol";

export interface BackoffInput {
  /** The attempt that just failed, 1-based. */
  attempt: number;
  policy: Pick<RetryPolicy, "backoffMs" | "maxBackoffMs">;
  /** Uniform in [0, 1); injected so that runs repeat exactly. */
  random: () => number;
}

/**
 * Exponential backoff with "equal jitter": the base doubles per attempt (`backoffMs · 2^(attempt-1)`,
 * capped at `maxBackoffMs`) and the wait is drawn uniformly from its upper half, so that retries of
 * parallel branches spread out but never collapse to zero.
 */
export function computeBackoffDelay(input: BackoffInput): number {
  const exponent = Math.min(Math.max(input.attempt - 1, 0), 30);
  const base = Math.min(input.policy.maxBackoffMs, input.policy.backoffMs * 2 ** exponent);
  const half = base / 2;
  return Math.round(half + half * clampUnit(input.random()));
}

function clampUnit(value: number): number {
  if (!Number.isFinite(value) || value < 0) return 0;
  return value >= 1 ? 0.999_999 : value;
}
