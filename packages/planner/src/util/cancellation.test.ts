import { afterEach, describe, expect, it, vi } from "vitest";
import { Cancellation, LazyAbortSignal, TimeoutError } from "./cancellation.js";

afterEach(() => {
  vi.useRealTimers();
});

describe("Cancellation.race", () => {
  it("passes values and errors through", async () => {
    const cancellation = new Cancellation(new AbortController().signal);
    expect(await cancellation.race(Promise.resolve(1))).toBe(1);
    await expect(cancellation.race(Promise.reject(new Error("no")))).rejects.toThrow("no");
  });

  it("returns the promise itself when nothing can cancel it", () => {
    const promise = Promise.resolve(1);
    expect(new Cancellation().race(promise)).toBe(promise);
  });

  it("rejects at once when the run aborts, even if the work never settles", async () => {
    const controller = new AbortController();
    const cancellation = new Cancellation(controller.signal);
    const reasons: Error[] = [];
    const pending = cancellation.race(new Promise(() => undefined), {
      onAbort: (reason) => reasons.push(reason),
    });
    controller.abort(new Error("user cancelled"));
    await expect(pending).rejects.toThrow("user cancelled");
    expect(reasons.map((reason) => reason.message)).toEqual(["user cancelled"]);
    await expect(cancellation.race(Promise.resolve(1))).rejects.toThrow("user cancelled");
  });

  it("rejects with TimeoutError after timeoutMs", async () => {
    vi.useFakeTimers();
    const cancellation = new Cancellation();
    const reasons: Error[] = [];
    const pending = cancellation.race(new Promise(() => undefined), {
      timeoutMs: 50,
      onAbort: (reason) => reasons.push(reason),
    });
    const outcome = pending.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(60);
    const error = await outcome;
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).timeoutMs).toBe(50);
    expect(reasons[0]).toBe(error);
  });

  it("detaches from the caller's signal when disposed", async () => {
    const controller = new AbortController();
    const cancellation = new Cancellation(controller.signal);
    cancellation.dispose();
    let settled = false;
    void cancellation.race(new Promise(() => undefined)).catch(() => (settled = true));
    controller.abort();
    await Promise.resolve();
    expect(settled).toBe(false);
  });
});

describe("LazyAbortSignal", () => {
  it("creates its signal on first read, already aborted if the abort came first", () => {
    const lazy = new LazyAbortSignal();
    lazy.abort(new Error("early"));
    expect(lazy.signal.aborted).toBe(true);
    expect((lazy.signal.reason as Error).message).toBe("early");
    const later = new LazyAbortSignal();
    const signal = later.signal;
    expect(signal.aborted).toBe(false);
    later.abort(new Error("late"));
    expect(signal.aborted).toBe(true);
  });
});
