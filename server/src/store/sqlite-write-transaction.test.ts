import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import Database from "better-sqlite3";
import { AgentSpec } from "@waddle/protocol";
import { afterAll, describe, expect, it } from "vitest";
import { SqliteStore } from "./sqlite-store.js";
import { writeTransaction } from "./sqlite-write-transaction.js";

const dir = mkdtempSync(path.join(tmpdir(), "waddle-sqlite-lock-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Another connection, on another thread, as the checkpoint worker is: it takes the write lock, says so, and
// keeps it for `holdMs` before committing (Atomics.wait blocks that thread, not this one).
const HOLDER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driverPath);
const db = new Database(workerData.filename, { fileMustExist: true });
db.exec("BEGIN IMMEDIATE");
parentPort.postMessage("locked");
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, workerData.holdMs);
db.exec("COMMIT");
db.close();
`;

/** Resolves once another connection holds `filename`'s write lock; it lets go after `holdMs`. */
async function holdWriteLock(filename: string, holdMs = 300): Promise<{ released: Promise<void> }> {
  const driverPath = createRequire(import.meta.url).resolve("better-sqlite3");
  const worker = new Worker(HOLDER_SOURCE, { eval: true, workerData: { driverPath, filename, holdMs } });
  const released = new Promise<void>((resolve, reject) => {
    worker.once("error", reject);
    worker.once("exit", () => resolve());
  });
  await new Promise<void>((resolve, reject) => {
    worker.once("message", () => resolve());
    worker.once("error", reject);
  });
  return { released };
}

describe("writeTransaction", () => {
  it("waits for a write lock held elsewhere, where a deferred transaction that reads first fails at once", async () => {
    const file = path.join(dir, "raw.db");
    const db = new Database(file);
    db.pragma("journal_mode = WAL");
    db.pragma("busy_timeout = 5000");
    db.exec("CREATE TABLE counter (n INTEGER NOT NULL); INSERT INTO counter VALUES (0)");
    const bump = (): void => {
      const { n } = db.prepare("SELECT n FROM counter").get() as { n: number };
      db.prepare("UPDATE counter SET n = ?").run(n + 1);
    };

    const lock = await holdWriteLock(file);
    // SQLite's behaviour this guards against: a read snapshot is held, so the busy handler is not called.
    expect(() => db.transaction(bump)()).toThrow(expect.objectContaining({ code: "SQLITE_BUSY" }));
    writeTransaction(db, bump)();
    await lock.released;

    expect(db.prepare("SELECT n FROM counter").get()).toEqual({ n: 1 });
    db.close();
  });

  it("lets the store's writes that read first wait for another connection's lock", async () => {
    const file = path.join(dir, "store.db");
    const store = new SqliteStore(file);
    await store.createAgent({ spec: AgentSpec.parse({ version: 1, id: "a", name: "A" }) });
    await store.createRun({ id: "r1", agentId: "a", agentVersion: 1, query: "q", status: "queued" });
    const claim = await store.claimRun({ runId: "r1", owner: "w1", leaseMs: 60_000, statuses: ["queued"] });
    expect(claim).toBeDefined();
    const fence = claim!.epoch;

    // Each of these reads (a fence, a sequence number) before it writes.
    let lock = await holdWriteLock(file);
    await store.updateRun("r1", { status: "running" }, { fence });
    await lock.released;

    lock = await holdWriteLock(file);
    await store.appendEvents(
      [{ event: { runId: "r1", seq: 1, ts: 1, step: 0, type: "step_start", data: { source: "llm" } } }],
      { fence: { runId: "r1", epoch: fence } },
    );
    await lock.released;

    lock = await holdWriteLock(file);
    await store.callRecords.append("r1", [
      { kind: "tool", step: 0, tool: "t", sideEffects: "pure", args: {}, observation: { ok: true } },
    ]);
    await lock.released;

    expect((await store.getRun("r1"))?.status).toBe("running");
    expect(await store.listEvents("r1")).toHaveLength(1);
    expect(await store.callRecords.list("r1")).toHaveLength(1);
    await store.close();
  });
});
