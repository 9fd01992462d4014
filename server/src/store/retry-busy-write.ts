/** Waits before each new attempt of a write SQLite answered "busy": about 2.6 s more in all. */
export const BUSY_RETRY_DELAYS_MS: readonly number[] = [100, 500, 2_000];

/**
 * SQLite's `SQLITE_BUSY` and `SQLITE_LOCKED` (and their extended codes): another connection held the lock
 * past the busy timeout. The write did nothing and may succeed if made again.
 */
export function isBusyStoreError(error: unknown): boolean {
  if (typeof error !== "object" || error === null || !("code" in error)) return false;
  const { code } = error as { code: unknown };
  return typeof code === "string" && /^SQLITE_(BUSY|LOCKED)(_|$)/.test(code);
}

/**
 * Makes `write` again after a busy answer, up to `delaysMs.length` more times, so that a lock held a little
 * too long costs a delay rather than the data. Any other error, or the last busy one, is thrown.
 */
export async function retryBusyWrite<T>(
  write: () => Promise<T>,
  options: {
    delaysMs?: readonly number[];
    onRetry?: (error: unknown, attempt: number) => void;
  } = {},
): Promise<T> {
  const delays = options.delaysMs ?? BUSY_RETRY_DELAYS_MS;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await write();
    } catch (error) {
      const delay = delays[attempt - 1];
      if (delay === undefined || !isBusyStoreError(error)) throw error;
      options.onRetry?.(error, attempt);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
