/** How deliveries are retried (the defaults below; tests shorten `baseMs`). */
export interface RetryPolicy {
  /** The wait after the first failed attempt, before jitter; it doubles with each attempt. */
  baseMs: number;
  /** The longest wait between two attempts. */
  maxDelayMs: number;
  /** No attempt starts later than this after the notification was enqueued: it fails instead. */
  windowMs: number;
}

/** 5 s, 10 s, 20 s … up to an hour between attempts, for 24 hours: about 30 attempts in all. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  baseMs: 5_000,
  maxDelayMs: 60 * 60_000,
  windowMs: 24 * 60 * 60_000,
};

/** What one attempt met. */
export type AttemptResult =
  | { kind: "response"; status: number; retryAfterMs?: number }
  /** Refused, reset, timed out, or the name did not resolve: the target may be back later. */
  | { kind: "network"; message: string }
  /** Never sent, and sending again would not help (a host off the allow-list, a secret that does not open). */
  | { kind: "refused"; message: string };

/** A network error, a timeout, a 5xx, 408 or 429 may pass later; any other answer stops the retries. */
export function isRetryable(result: AttemptResult): boolean {
  if (result.kind === "network") return true;
  if (result.kind === "refused") return false;
  return result.status >= 500 || result.status === 408 || result.status === 429;
}

/**
 * The wait after `attempts` failed attempts: `baseMs · 2^(attempts-1)` capped at `maxDelayMs`, of which a
 * random half is kept ("equal jitter"), so that targets coming back are not hit by every sender at once.
 */
export function getBackoffMs(
  attempts: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number {
  const exponential = Math.min(
    policy.maxDelayMs,
    policy.baseMs * 2 ** Math.min(Math.max(attempts - 1, 0), 40),
  );
  return Math.round(exponential / 2 + random() * (exponential / 2));
}

/**
 * Where an entry goes after an attempt: `delivered` on a 2xx; `pending` again with its next due time when
 * the result may pass later and the next attempt still starts inside the window (a 429's Retry-After is
 * waited for when longer); `failed` otherwise.
 */
export function getNextState(options: {
  result: AttemptResult;
  /** Attempts made, this one included. */
  attempts: number;
  createdAtMs: number;
  nowMs: number;
  policy: RetryPolicy;
  random?: () => number;
}): { state: "delivered" | "pending" | "failed"; nextAttemptAtMs: number | null } {
  const { result, policy } = options;
  if (result.kind === "response" && result.status >= 200 && result.status < 300)
    return { state: "delivered", nextAttemptAtMs: null };
  if (!isRetryable(result)) return { state: "failed", nextAttemptAtMs: null };
  const wait = Math.max(
    getBackoffMs(options.attempts, policy, options.random),
    result.kind === "response" ? Math.min(result.retryAfterMs ?? 0, policy.maxDelayMs) : 0,
  );
  const next = options.nowMs + wait;
  if (next > options.createdAtMs + policy.windowMs) return { state: "failed", nextAttemptAtMs: null };
  return { state: "pending", nextAttemptAtMs: next };
}

/** A `Retry-After` header (seconds, or an HTTP date) in ms from `nowMs`; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (!value) return undefined;
  if (/^\d{1,7}$/.test(value.trim())) return Number(value.trim()) * 1_000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}
