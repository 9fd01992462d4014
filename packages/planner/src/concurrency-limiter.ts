/** Runs at most `limit` tasks at once; the rest wait in FIFO order. */
export interface ConcurrencyLimiter {
  run<T>(task: () => Promise<T>): Promise<T>;
  readonly active: number;
  readonly pending: number;
}

/** A real limiter: concurrency never exceeds `limit`, whatever the caller schedules. */
export function createConcurrencyLimiter(limit: number): ConcurrencyLimiter {
  if (!Number.isInteger(limit) || limit < 1)
    throw new RangeError(`limit must be a positive integer, got ${limit}`);
  let active = 0;
  const queue: (() => void)[] = [];
  const release = (): void => {
    active -= 1;
    const next = queue.shift();
    if (next !== undefined) {
      active += 1;
      next();
    }
  };
  return {
    get active() {
      return active;
    },
    get pending() {
      return queue.length;
    },
    run<T>(task: () => Promise<T>): Promise<T> {
      const start = (): Promise<T> => {
        let promise: Promise<T>;
        try {
          promise = task();
        } catch (error) {
          promise = Promise.reject(error as Error);
        }
        return promise.finally(release);
      };
      if (active < limit) {
        active += 1;
        return start();
      }
      return new Promise<T>((resolve, reject) => {
        queue.push(() => {
          start().then(resolve, reject);
        });
      });
    },
  };
}
