import { abortReason } from "./abortable-sleep.js";
import { sharedTimeouts } from "./timeout-scheduler.js";

export class TimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`Timed out after ${timeoutMs} ms.`);
    this.name = "TimeoutError";
  }
}

export interface RaceOptions {
  /** Rejects with `TimeoutError` after this long. */
  timeoutMs?: number;
  /** Called with the reason when the run aborts or the timeout fires (to abort the work's own signal). */
  onAbort?: (reason: Error) => void;
}

const ignore = (): void => undefined;
/** A shared default: `= {}` would allocate an object on every LLM call. */
const NO_RACE_OPTIONS: RaceOptions = Object.freeze({});
const NEVER_ABORTED = new AbortController().signal;

/**
 * A run's cancellation: one listener on the run's signal fanned out to every pending operation, which is
 * much cheaper per step than an AbortController and an EventTarget listener per call.
 */
export class Cancellation {
  readonly signal: AbortSignal;
  private readonly waiters = new Set<(reason: Error) => void>();
  private readonly onSignalAbort: (() => void) | undefined;

  /** Without a signal, nothing can cancel the run (and no listener is attached anywhere). */
  constructor(signal?: AbortSignal) {
    this.signal = signal ?? NEVER_ABORTED;
    if (signal !== undefined && !signal.aborted) {
      this.onSignalAbort = () => {
        const reason = abortReason(signal);
        for (const waiter of [...this.waiters]) waiter(reason);
        this.waiters.clear();
      };
      signal.addEventListener("abort", this.onSignalAbort, { once: true });
    }
  }

  /** Detaches from the caller's signal once the run is over. */
  dispose(): void {
    if (this.onSignalAbort !== undefined) this.signal.removeEventListener("abort", this.onSignalAbort);
    this.waiters.clear();
  }

  get aborted(): boolean {
    return this.signal.aborted;
  }

  /**
   * Settles with `promise`, or rejects as soon as the run aborts or the timeout passes, so that work which
   * ignores its signal cannot hold the run (its result is then dropped).
   */
  race<T>(promise: Promise<T>, options: RaceOptions = NO_RACE_OPTIONS): Promise<T> {
    // Nothing can cancel or time out this work: no wrapper needed (the common case per step).
    if (this.onSignalAbort === undefined && options.timeoutMs === undefined && !this.signal.aborted)
      return promise;
    if (this.signal.aborted) {
      promise.catch(ignore);
      const reason = abortReason(this.signal);
      options.onAbort?.(reason);
      return Promise.reject(reason);
    }
    return new Promise<T>((resolve, reject) => {
      let cancelTimer: (() => void) | undefined;
      const settle = (): void => {
        cancelTimer?.();
        this.waiters.delete(onAbort);
      };
      const onAbort = (reason: Error): void => {
        settle();
        promise.catch(ignore);
        options.onAbort?.(reason);
        reject(reason);
      };
      this.waiters.add(onAbort);
      const timeoutMs = options.timeoutMs;
      if (timeoutMs !== undefined && Number.isFinite(timeoutMs)) {
        cancelTimer = sharedTimeouts.schedule(timeoutMs, () =>
          onAbort(new TimeoutError(Math.max(0, Math.round(timeoutMs)))),
        );
      }
      promise.then(
        (value) => {
          settle();
          resolve(value);
        },
        (error: unknown) => {
          settle();
          reject(error as Error);
        },
      );
    });
  }
}

/**
 * An AbortSignal created only when someone reads it: most tools never do, and creating AbortControllers
 * is a large share of a step's cost.
 */
export class LazyAbortSignal {
  private controller: AbortController | undefined;
  private reason: Error | undefined;

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.reason !== undefined) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  abort(reason: Error): void {
    this.reason ??= reason;
    this.controller?.abort(reason);
  }
}
