import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { getMissingPartsReason } from "../../testing/real-parts.js";
import { startTestPostgres, type TestPostgres } from "../../testing/start-postgres.js";
import { applyPgMigrations } from "../apply-pg-migrations.js";
import { applySqliteMigrations } from "../apply-sqlite-migrations.js";
import { PG_MIGRATIONS } from "../pg-migrations.js";
import { revertPgMigrations } from "../pg-migration-revert.js";
import { SQLITE_MIGRATIONS } from "../sqlite-migrations.js";
import { revertSqliteMigrations } from "../sqlite-migration-revert.js";
import { PG_INBOX_MIGRATION, SQLITE_INBOX_MIGRATION } from "./inbox-migrations.js";

const dir = mkdtempSync(path.join(tmpdir(), "waddle-inbox-migration-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const NOW = "2026-12-01T00:00:00.000Z";
/** A session record as the store keeps it, holding `merges` merges for a person. */
const record = (id: string, merges: number) =>
  JSON.stringify({
    id,
    pendingMerges: Array.from({ length: merges }, (_, i) => ({ mergeId: `merge_${i}` })),
  });

describe("the inbox's SQLite migration (20)", () => {
  const upTo = (id: number) => SQLITE_MIGRATIONS.filter((migration) => migration.id <= id);

  it("counts the merges sessions already hold, indexes those that hold any, and reverts", () => {
    const db = new Database(path.join(dir, "inbox.db"));
    applySqliteMigrations(db, upTo(SQLITE_INBOX_MIGRATION.id - 1));
    const insert = db.prepare(
      "INSERT INTO sessions (id, agent_id, record, summary, updated_at) VALUES (?, 'a', ?, '{}', ?)",
    );
    insert.run("ses_held", record("ses_held", 2), NOW);
    insert.run("ses_idle", record("ses_idle", 0), NOW);
    expect(applySqliteMigrations(db, upTo(SQLITE_INBOX_MIGRATION.id))).toBe(1);
    expect(db.prepare("SELECT id, pending_merges FROM sessions ORDER BY id").all()).toEqual([
      { id: "ses_held", pending_merges: 2 },
      { id: "ses_idle", pending_merges: 0 },
    ]);
    const plan = db
      .prepare(
        "EXPLAIN QUERY PLAN SELECT record FROM sessions WHERE pending_merges > 0 ORDER BY updated_at DESC, id DESC LIMIT 100",
      )
      .all() as { detail: string }[];
    expect(plan.map((row) => row.detail).join("; ")).toMatch(/INDEX sessions_with_pending_merges/);
    const paused = db
      .prepare(
        "EXPLAIN QUERY PLAN SELECT * FROM runs WHERE status IN ('paused') ORDER BY position DESC LIMIT 5000",
      )
      .all() as { detail: string }[];
    expect(paused.map((row) => row.detail).join("; ")).toMatch(/INDEX runs_by_status/);

    revertSqliteMigrations(db, {
      toId: SQLITE_INBOX_MIGRATION.id - 1,
      migrations: upTo(SQLITE_INBOX_MIGRATION.id),
    });
    const columns = (db.prepare("PRAGMA table_info(sessions)").all() as { name: string }[]).map(
      (row) => row.name,
    );
    expect(columns).not.toContain("pending_merges");
    expect(
      db.prepare("SELECT name FROM sqlite_master WHERE name LIKE '%inbox%' OR name LIKE '%pending%'").all(),
    ).toEqual([]);
    expect(db.prepare("SELECT COUNT(*) AS n FROM sessions").get()).toEqual({ n: 2 });
    expect(applySqliteMigrations(db, upTo(SQLITE_INBOX_MIGRATION.id))).toBe(1);
    db.close();
  });
});

const skip = getMissingPartsReason(["postgres"]);

describe.skipIf(skip)("the inbox's PostgreSQL migration (17)", () => {
  let postgres: TestPostgres | undefined;
  afterAll(async () => {
    await postgres?.destroy();
  });
  const upTo = (id: number) => PG_MIGRATIONS.filter((migration) => migration.id <= id);

  it("counts the merges sessions already hold, and reverts", async () => {
    postgres = await startTestPostgres();
    const pool = new pg.Pool({ connectionString: await postgres.createDatabase(), max: 2 });
    try {
      await applyPgMigrations(pool, upTo(PG_INBOX_MIGRATION.id - 1));
      for (const [id, merges] of [
        ["ses_held", 1],
        ["ses_idle", 0],
      ] as const) {
        await pool.query(
          "INSERT INTO sessions (id, agent_id, record, summary, updated_at) VALUES ($1, 'a', $2, '{}', $3)",
          [id, record(id, merges), NOW],
        );
      }
      await applyPgMigrations(pool, upTo(PG_INBOX_MIGRATION.id));
      expect((await pool.query("SELECT id, pending_merges FROM sessions ORDER BY id")).rows).toEqual([
        { id: "ses_held", pending_merges: 1 },
        { id: "ses_idle", pending_merges: 0 },
      ]);
      await revertPgMigrations(pool, {
        toId: PG_INBOX_MIGRATION.id - 1,
        migrations: upTo(PG_INBOX_MIGRATION.id),
      });
      const columns = await pool.query(
        "SELECT column_name FROM information_schema.columns WHERE table_name = 'sessions' AND column_name = 'pending_merges'",
      );
      expect(columns.rows).toEqual([]);
      expect((await pool.query("SELECT to_regclass('inbox_marks') AS name")).rows).toEqual([{ name: null }]);
      await applyPgMigrations(pool, upTo(PG_INBOX_MIGRATION.id));
      expect((await pool.query("SELECT COUNT(*)::int AS n FROM inbox_marks")).rows).toEqual([{ n: 0 }]);
    } finally {
      await pool.end();
    }
  }, 60_000);
});
