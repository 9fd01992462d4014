/** Schedules a callback for the next frame; returns a handle to cancel it. */
export interface FrameScheduler {
  request(callback: () => void): number;
  cancel(handle: number): void;
}

/** The browser's animation frames (the default scheduler). */
export const animationFrames: FrameScheduler = {
  request: (callback) => requestAnimationFrame(() => callback()),
  cancel: (handle) => cancelAnimationFrame(handle),
};

export interface FrameThrottle<T> {
  /** Records the latest value; the callback gets it on the next frame, once, however many came. */
  push(value: T): void;
  /** Runs a pending call now (pointer released: the last value must land). */
  flush(): void;
  cancel(): void;
}

/**
 * Throttles a callback to one call per animation frame with the latest value: a scrubber dragged
 * across 10,000 events fires `input` hundreds of times a second, and only the last per frame matters.
 */
export function createFrameThrottle<T>(
  callback: (value: T) => void,
  scheduler: FrameScheduler,
): FrameThrottle<T> {
  let handle: number | null = null;
  let pending: { value: T } | null = null;
  const run = () => {
    handle = null;
    const next = pending;
    pending = null;
    if (next) callback(next.value);
  };
  return {
    push(value) {
      pending = { value };
      handle ??= scheduler.request(run);
    },
    flush() {
      if (handle !== null) scheduler.cancel(handle);
      run();
    },
    cancel() {
      if (handle !== null) scheduler.cancel(handle);
      handle = null;
      pending = null;
    },
  };
}
