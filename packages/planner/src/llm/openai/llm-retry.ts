/** Something with a `get(name)`, such as `Headers`. */
export interface HeaderReader {
  get(name: string): string | null;
}

/**
 * How long the server asks us to wait: `retry-after-ms` (OpenAI, Azure), else `retry-after` in seconds or
 * as an HTTP date. `undefined` when the server says nothing usable.
 */
export function parseRetryAfterMs(
  headers: HeaderReader | undefined,
  now: number = Date.now(),
): number | undefined {
  if (headers === undefined) return undefined;
  const milliseconds = Number.parseFloat(headers.get("retry-after-ms") ?? "");
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds;
  const value = headers.get("retry-after")?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number.parseFloat(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_LLM_BACKOFF: BackoffPolicy = { baseMs: 500, maxMs: 8_000 };

/** Exponential backoff for retry number `retry` (0-based), with up to 25 % jitter below the nominal delay. */
export function getBackoffMs(retry: number, policy: BackoffPolicy = DEFAULT_LLM_BACKOFF): number {
  const nominal = Math.min(policy.maxMs, policy.baseMs * 2 ** retry);
  return Math.round(nominal * (0.75 + Math.random() * 0.25));
}
