import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { AgentSpec, type RunEvent } from "@waddle/protocol";
import { afterAll, describe, expect, it } from "vitest";
import { SqliteStore } from "./sqlite-store.js";
import { WalCheckpointer } from "./wal-checkpointer.js";

const dir = mkdtempSync(path.join(tmpdir(), "waddle-wal-"));
let counter = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A timer interval no test waits for: checkpoints happen when a test asks for one.
const NEVER_MS = 3_600_000;

function chunk(seq: number): RunEvent {
  return {
    runId: "r1",
    seq,
    ts: seq,
    step: 1,
    type: "llm_stream_chunk",
    data: { text: `word ${seq} `, done: false, phase: "answer", channel: "answer", action_seq: 1 },
  } as RunEvent;
}

async function openStore(restartFrames?: number): Promise<{ store: SqliteStore; file: string }> {
  const file = path.join(dir, `wal-${(counter += 1)}.db`);
  const store = new SqliteStore(file, {
    backgroundCheckpoints: { intervalMs: NEVER_MS, ...(restartFrames ? { restartFrames } : {}) },
  });
  await store.createAgent({ spec: AgentSpec.parse({ version: 1, id: "a", name: "A" }) });
  await store.createRun({ id: "r1", agentId: "a", agentVersion: 1, query: "q", status: "running" });
  return { store, file };
}

async function appendChunks(store: SqliteStore, from: number, count: number): Promise<void> {
  for (let seq = from; seq < from + count; seq += 1) await store.appendEvents([{ event: chunk(seq) }]);
}

describe("background WAL checkpoints", () => {
  it("leave commits alone and copy the WAL into the database from the worker", async () => {
    const { store, file } = await openStore();
    await appendChunks(store, 1, 300);
    const before = statSync(file).size;
    const result = await store.checkpointer!.checkpoint();
    expect(result.log).toBeGreaterThan(300);
    expect(result).toMatchObject({ busy: 0, checkpointed: result.log, restarted: false });
    // The database file itself grew by the copied pages, before any close.
    expect(statSync(file).size).toBeGreaterThan(before);
    await store.close();
    expect(existsSync(`${file}-wal`)).toBe(false);
    const reopened = new SqliteStore(file);
    expect((await reopened.listEvents("r1")).map((event) => event.seq)).toEqual(
      Array.from({ length: 300 }, (_, index) => index + 1),
    );
    await reopened.close();
  });

  it("turns SQLite's own checkpoints off on the store's connection while the worker runs", async () => {
    const { store, file } = await openStore();
    await appendChunks(store, 1, 1200);
    // 1,200 commits of two pages or more each: SQLite would have checkpointed (and restarted) at 1,000.
    expect(statSync(`${file}-wal`).size).toBeGreaterThan(2000 * 4096);
    expect((await store.checkpointer!.checkpoint()).log).toBeGreaterThan(2000);
    await store.close();
  });

  it("restarts a WAL that outgrew restartFrames, so the next commit writes it from the start", async () => {
    const { store } = await openStore(50);
    await appendChunks(store, 1, 100);
    const restarted = await store.checkpointer!.checkpoint();
    expect(restarted.restarted).toBe(true);
    expect(restarted.checkpointed).toBe(restarted.log);
    await appendChunks(store, 101, 1);
    const after = await store.checkpointer!.checkpoint();
    expect(after.log).toBeLessThan(10);
    expect((await store.listEvents("r1")).length).toBe(101);
    await store.close();
  });

  it("reports a worker that cannot open the database (the store then checkpoints in commits again)", async () => {
    const failure = await new Promise<Error>((resolve) => {
      new WalCheckpointer({ filename: path.join(dir, "missing", "none.db"), onFailure: resolve });
    });
    expect(failure.message).toMatch(/directory does not exist|unable to open/i);
  });
});
