import { abortReason } from "./abortable-sleep.js";

/** A child signal that aborts with its parent, or by itself after `timeoutMs` (then `timedOut` is true). */
export interface AbortScope {
  readonly signal: AbortSignal;
  readonly timedOut: boolean;
  /** Clears the timer and detaches from the parent; call it when the work is done. */
  dispose(): void;
}

export class TimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`Timed out after ${timeoutMs} ms.`);
    this.name = "TimeoutError";
  }
}

/** Links a new AbortController to `parent` and, when given, to a timer of `timeoutMs`. */
export function createAbortScope(parent: AbortSignal | undefined, timeoutMs?: number): AbortScope {
  const controller = new AbortController();
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onParentAbort = (): void => controller.abort(abortReason(parent));
  if (parent?.aborted === true) controller.abort(abortReason(parent));
  else parent?.addEventListener("abort", onParentAbort, { once: true });
  if (timeoutMs !== undefined && Number.isFinite(timeoutMs) && !controller.signal.aborted) {
    timer = setTimeout(
      () => {
        timedOut = true;
        controller.abort(new TimeoutError(Math.max(0, Math.round(timeoutMs))));
      },
      Math.max(0, timeoutMs),
    );
  }
  return {
    signal: controller.signal,
    get timedOut() {
      return timedOut;
    },
    dispose() {
      if (timer !== undefined) clearTimeout(timer);
      parent?.removeEventListener("abort", onParentAbort);
    },
  };
}

/**
 * Settles with `promise`, or rejects as soon as `signal` aborts, so that work which ignores its signal
 * cannot hold the run (the promise keeps running but its result is dropped).
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(abortReason(signal));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => {
      promise.catch(() => undefined);
      reject(abortReason(signal));
    };
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error as Error);
      },
    );
  });
}
