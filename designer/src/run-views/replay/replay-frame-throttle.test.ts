import { describe, expect, it } from "vitest";
import { createFrameThrottle, type FrameScheduler } from "./replay-frame-throttle.js";

function createManualFrames(): FrameScheduler & { tick(): void; pending(): number } {
  let next = 1;
  const callbacks = new Map<number, () => void>();
  return {
    request(callback) {
      callbacks.set(next, callback);
      return next++;
    },
    cancel(handle) {
      callbacks.delete(handle);
    },
    tick() {
      const due = [...callbacks.values()];
      callbacks.clear();
      for (const callback of due) callback();
    },
    pending: () => callbacks.size,
  };
}

describe("createFrameThrottle", () => {
  it("calls once per frame with the latest value", () => {
    const frames = createManualFrames();
    const seen: number[] = [];
    const throttle = createFrameThrottle((value: number) => seen.push(value), frames);
    throttle.push(1);
    throttle.push(2);
    throttle.push(3);
    expect(frames.pending()).toBe(1);
    expect(seen).toEqual([]);
    frames.tick();
    expect(seen).toEqual([3]);
    frames.tick();
    expect(seen).toEqual([3]);
    throttle.push(4);
    frames.tick();
    expect(seen).toEqual([3, 4]);
  });
  it("flushes the pending value at once and cancels drop it", () => {
    const frames = createManualFrames();
    const seen: number[] = [];
    const throttle = createFrameThrottle((value: number) => seen.push(value), frames);
    throttle.push(7);
    throttle.flush();
    expect(seen).toEqual([7]);
    expect(frames.pending()).toBe(0);
    throttle.flush();
    expect(seen).toEqual([7]);
    throttle.push(8);
    throttle.cancel();
    frames.tick();
    expect(seen).toEqual([7]);
  });
});
