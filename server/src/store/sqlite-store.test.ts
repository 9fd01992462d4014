import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { AgentSpec } from "@waddle/protocol";
import { afterAll, describe, expect, it } from "vitest";
import { SqliteStore } from "./sqlite-store.js";

const dir = mkdtempSync(path.join(tmpdir(), "waddle-sqlite-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("SqliteStore", () => {
  it("keeps agents, runs, events and paused states across reopening", async () => {
    const file = path.join(dir, "reopen.db");
    const first = new SqliteStore(file);
    await first.createAgent({ spec: AgentSpec.parse({ version: 1, id: "kept", name: "Kept" }) });
    await first.createRun({ id: "r1", agentId: "kept", agentVersion: 1, query: "q", status: "paused" });
    await first.appendEvent({
      runId: "r1",
      seq: 1,
      ts: 1,
      step: 0,
      type: "step_start",
      data: { source: "llm" },
    });
    await first.savePausedState({ token: "t", runId: "r1", state: { a: 1 } });
    await first.close();

    const second = new SqliteStore(file);
    expect((await second.getAgent("kept"))?.spec.name).toBe("Kept");
    expect((await second.getRun("r1"))?.lastSeq).toBe(1);
    expect(await second.listEvents("r1")).toHaveLength(1);
    expect(await second.loadPausedState("t")).toEqual({ a: 1 });
    await second.close();
  });

  it("records its migrations once and runs in WAL mode", async () => {
    const file = path.join(dir, "migrations.db");
    await new SqliteStore(file).close();
    await new SqliteStore(file).close();
    const db = new Database(file, { readonly: true });
    expect(db.prepare("SELECT id, name FROM migrations").all()).toEqual([{ id: 1, name: "initial" }]);
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    db.close();
  });
});
