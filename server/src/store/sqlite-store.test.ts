import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { AgentSpec } from "@waddle/protocol";
import { afterAll, describe, expect, it } from "vitest";
import { SQLITE_MIGRATIONS } from "./sqlite-migrations.js";
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
    expect(db.prepare("SELECT id, name FROM migrations").all()).toEqual([
      { id: 1, name: "initial" },
      { id: 2, name: "runs_by_position" },
      { id: 3, name: "run_tool_context_keys" },
      { id: 4, name: "run_claims_and_checkpoints" },
      { id: 5, name: "request_keys" },
      { id: 6, name: "sessions" },
      { id: 7, name: "run_origin" },
      { id: 8, name: "credentials" },
      { id: 9, name: "agent_drafts" },
      { id: 11, name: "run_call_records" },
      { id: 12, name: "agent_tests" },
      { id: 13, name: "api_keys" },
      { id: 14, name: "audit_log" },
      { id: 15, name: "a2a_tasks" },
      { id: 16, name: "releases" },
      { id: 17, name: "run_decisions" },
      { id: 18, name: "shadow_reports" },
      { id: 19, name: "public_chats" },
      { id: 20, name: "inbox" },
      { id: 21, name: "webhooks" },
      { id: 22, name: "triggers" },
    ]);
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    db.close();
  });

  it("finds the next run position and the newest runs through an index, not a scan", async () => {
    const file = path.join(dir, "plans.db");
    await new SqliteStore(file).close();
    const db = new Database(file, { readonly: true });
    const plan = (sql: string) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[])
        .map((row) => row.detail)
        .join("; ");
    expect(plan("SELECT COALESCE(MAX(position), 0) + 1 FROM runs")).toMatch(/INDEX runs_by_position/);
    expect(plan("SELECT * FROM runs ORDER BY position DESC LIMIT 100")).toMatch(/INDEX runs_by_position/);
    expect(plan("SELECT * FROM runs ORDER BY position DESC LIMIT 100")).not.toMatch(/TEMP B-TREE/);
    db.close();
  });

  it("upgrades a database made before the position index and toolContext keys", async () => {
    const file = path.join(dir, "old.db");
    const old = new Database(file);
    old.exec(SQLITE_MIGRATIONS[0]!.sql);
    old.exec(
      "CREATE TABLE migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)",
    );
    old.prepare("INSERT INTO migrations VALUES (1, 'initial', 'then')").run();
    old
      .prepare(
        `INSERT INTO runs (id, agent_id, agent_version, status, query, usage, created_at, position)
           VALUES ('r-old', 'a', 1, 'paused', 'q', '{}', 'then', 1)`,
      )
      .run();
    old.close();
    const store = new SqliteStore(file);
    expect(await store.getRun("r-old")).not.toHaveProperty("toolContextKeys");
    await store.createRun({
      id: "r-new",
      agentId: "a",
      agentVersion: 1,
      query: "q",
      status: "queued",
      toolContextKeys: ["k"],
    });
    expect((await store.listRuns()).map((run) => [run.id, run.toolContextKeys])).toEqual([
      ["r-new", ["k"]],
      ["r-old", undefined],
    ]);
    await store.close();
  });
});
