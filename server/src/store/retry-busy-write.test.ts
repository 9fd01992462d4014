import { describe, expect, it } from "vitest";
import { isBusyStoreError, retryBusyWrite } from "./retry-busy-write.js";

const busy = (code = "SQLITE_BUSY") => Object.assign(new Error("database is locked"), { code });

describe("retryBusyWrite", () => {
  it("tells SQLite's busy and locked answers from other errors", () => {
    for (const code of ["SQLITE_BUSY", "SQLITE_BUSY_SNAPSHOT", "SQLITE_LOCKED", "SQLITE_LOCKED_SHAREDCACHE"])
      expect(isBusyStoreError(busy(code))).toBe(true);
    for (const value of [
      busy("SQLITE_BUSYNESS"),
      busy("SQLITE_IOERR"),
      new Error("busy"),
      "SQLITE_BUSY",
      null,
    ])
      expect(isBusyStoreError(value)).toBe(false);
  });

  it("writes again after a busy answer and reports each retry", async () => {
    const retries: number[] = [];
    let calls = 0;
    const result = await retryBusyWrite(
      () => (++calls < 3 ? Promise.reject(busy()) : Promise.resolve("stored")),
      { delaysMs: [0, 0, 0], onRetry: (_error, attempt) => retries.push(attempt) },
    );
    expect(result).toBe("stored");
    expect(retries).toEqual([1, 2]);
  });

  it("throws the last busy answer once the delays are used up, and any other error at once", async () => {
    let calls = 0;
    await expect(
      retryBusyWrite(() => (calls++, Promise.reject(busy())), { delaysMs: [0, 0] }),
    ).rejects.toMatchObject({ code: "SQLITE_BUSY" });
    expect(calls).toBe(3);
    calls = 0;
    await expect(
      retryBusyWrite(() => (calls++, Promise.reject(new Error("constraint"))), { delaysMs: [0, 0] }),
    ).rejects.toThrow("constraint");
    expect(calls).toBe(1);
  });
});
