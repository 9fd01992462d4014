/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. Injected as `sleep` into the planner. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** The real `Sleep`: a timer that an `AbortSignal` cancels. */
export const abortableSleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(abortReason(signal));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortReason(signal));
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
    signal?.addEventListener("abort", onAbort, { once: true });
  });

/** The reason a signal aborted, always as an Error. */
export function abortReason(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error) return reason;
  const error = new Error(typeof reason === "string" ? reason : "The operation was aborted.");
  error.name = "AbortError";
  return error;
}
