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
  return new FifoLimiter(limit);
}

/**
 * A class rather than an object literal with `get active()` / `get pending()`: V8 kept such literals, and
 * the closure context they share, alive through minor GCs until the next macrotask (create-tool-runtime.ts
 * measured it). Here that context is small (the queue, whose tasks reach the run while they wait), but a
 * limiter is made per parallel step, and a class with prototype getters keeps the pattern off that path.
 */
class FifoLimiter implements ConcurrencyLimiter {
  #active = 0;
  readonly #queue: (() => void)[] = [];
  readonly #limit: number;
  readonly #release = (): void => {
    this.#active -= 1;
    const next = this.#queue.shift();
    if (next !== undefined) {
      this.#active += 1;
      next();
    }
  };

  constructor(limit: number) {
    this.#limit = limit;
  }

  get active(): number {
    return this.#active;
  }

  get pending(): number {
    return this.#queue.length;
  }

  run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#active < this.#limit) {
      this.#active += 1;
      return this.#start(task);
    }
    return new Promise<T>((resolve, reject) => {
      this.#queue.push(() => {
        this.#start(task).then(resolve, reject);
      });
    });
  }

  #start<T>(task: () => Promise<T>): Promise<T> {
    let promise: Promise<T>;
    try {
      promise = task();
    } catch (error) {
      promise = Promise.reject(error as Error);
    }
    return promise.finally(this.#release);
  }
}
