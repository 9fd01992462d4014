import { afterEach, describe, expect, it, vi } from "vitest";
import { TimeoutScheduler } from "./timeout-scheduler.js";

afterEach(() => {
  vi.useRealTimers();
});

describe("TimeoutScheduler", () => {
  it("fires due entries in one timer and re-arms for the next", async () => {
    vi.useFakeTimers();
    let now = 0;
    const scheduler = new TimeoutScheduler(() => now);
    const fired: string[] = [];
    scheduler.schedule(100, () => fired.push("a"));
    scheduler.schedule(50, () => fired.push("b"));
    scheduler.schedule(300, () => fired.push("c"));
    now = 60;
    await vi.advanceTimersByTimeAsync(60);
    expect(fired).toEqual(["b"]);
    now = 120;
    await vi.advanceTimersByTimeAsync(60);
    expect(fired).toEqual(["b", "a"]);
    expect(scheduler.pending).toBe(1);
  });

  it("never fires a cancelled entry", async () => {
    vi.useFakeTimers();
    let now = 0;
    const scheduler = new TimeoutScheduler(() => now);
    const fired: string[] = [];
    const cancel = scheduler.schedule(10, () => fired.push("x"));
    cancel();
    now = 20;
    await vi.advanceTimersByTimeAsync(20);
    expect(fired).toEqual([]);
    expect(scheduler.pending).toBe(0);
  });
});
