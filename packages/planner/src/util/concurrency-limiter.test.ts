import { describe, expect, it } from "vitest";
import { createConcurrencyLimiter } from "./concurrency-limiter.js";

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe("createConcurrencyLimiter", () => {
  it("never runs more than the limit at once and starts the rest in FIFO order", async () => {
    const limiter = createConcurrencyLimiter(2);
    const gates = [deferred(), deferred(), deferred(), deferred()];
    const started: number[] = [];
    let active = 0;
    let max = 0;
    const runs = gates.map((gate, index) =>
      limiter.run(async () => {
        started.push(index);
        active += 1;
        max = Math.max(max, active);
        await gate.promise;
        active -= 1;
        return index;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    expect(limiter.pending).toBe(2);
    gates[1]?.resolve();
    await runs[1];
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2]);
    for (const gate of gates) gate.resolve();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3]);
    expect(max).toBe(2);
    expect(limiter.active).toBe(0);
  });

  it("releases its slot when a task throws, synchronously or not", async () => {
    const limiter = createConcurrencyLimiter(1);
    await expect(
      limiter.run(() => {
        throw new Error("sync");
      }),
    ).rejects.toThrow("sync");
    await expect(limiter.run(() => Promise.reject(new Error("async")))).rejects.toThrow("async");
    expect(await limiter.run(async () => "next")).toBe("next");
  });

  it("refuses a limit below one", () => {
    expect(() => createConcurrencyLimiter(0)).toThrow(RangeError);
  });

  it("reads active and pending through a prototype, not through own getters of each limiter", () => {
    // Own accessors (an object literal's `get active()`) kept each parallel step's closure alive in V8.
    const limiter = createConcurrencyLimiter(2);
    for (const name of ["active", "pending"]) {
      expect(Object.getOwnPropertyDescriptor(limiter, name), name).toBeUndefined();
      expect(typeof Object.getOwnPropertyDescriptor(Object.getPrototypeOf(limiter), name)?.get).toBe(
        "function",
      );
    }
    expect([limiter.active, limiter.pending]).toEqual([0, 0]);
  });
});
