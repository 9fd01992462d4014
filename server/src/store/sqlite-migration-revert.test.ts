import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { revertSqliteMigrations } from "./sqlite-migration-revert.js";
import { applySqliteMigrations } from "./apply-sqlite-migrations.js";
import { SQLITE_MIGRATIONS } from "./sqlite-migrations.js";
import { SqliteStore } from "./sqlite-store.js";
import { MigrationError } from "./store-migration.js";

const dir = mkdtempSync(path.join(tmpdir(), "waddle-migrate-down-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The list as the releases left it (up to 17), so that migrations appended later do not change this test. */
const UP_TO_17 = SQLITE_MIGRATIONS.filter((migration) => migration.id <= 17);

let files = 0;
/** A database migrated up to 17, with an agent, a run with decisions, a key that may release, and a release. */
function openMigrated(): Database.Database {
  const db = new Database(path.join(dir, `down-${(files += 1)}.db`));
  db.pragma("journal_mode = WAL");
  db.pragma("foreign_keys = ON");
  applySqliteMigrations(db, UP_TO_17);
  const now = "2026-11-01T00:00:00.000Z";
  db.prepare("INSERT INTO agents VALUES ('triage', 2, ?, ?)").run(now, now);
  for (const version of [1, 2]) {
    db.prepare(
      "INSERT INTO agent_versions (agent_id, version, name, spec, created_at) VALUES ('triage', ?, 'Triage', '{}', ?)",
    ).run(version, now);
  }
  db.prepare(
    `INSERT INTO runs (id, agent_id, agent_version, status, query, usage, created_at, position, decisions)
     VALUES ('run_1', 'triage', 1, 'finished', 'q', '{}', ?, 1, '{"approve":1}')`,
  ).run(now);
  db.prepare(
    `INSERT INTO api_keys (id, name, role, created_at, hash, can_release)
     VALUES ('key_1', 'ci', 'editor', ?, 'h', 1)`,
  ).run(now);
  db.prepare(
    `INSERT INTO agent_releases (id, agent_id, channel, version, kind, released_at, released_by)
     VALUES ('rel_1', 'triage', 'production', 1, 'release', ?, 'ops')`,
  ).run(now);
  db.prepare("INSERT INTO agent_channels VALUES ('triage', 'production', 'rel_1')").run();
  return db;
}

const tables = (db: Database.Database) =>
  (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map(
    (row) => row.name,
  );
const columns = (db: Database.Database, table: string) =>
  (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((row) => row.name);
const appliedIds = (db: Database.Database) =>
  (db.prepare("SELECT id FROM migrations ORDER BY id").all() as { id: number }[]).map((row) => row.id);

describe("revertSqliteMigrations", () => {
  it("takes the releases back out (17, then 16), keeps every other row, and migrates up again", async () => {
    const db = openMigrated();
    const reverted = revertSqliteMigrations(db, { toId: 15, migrations: UP_TO_17 });
    expect(reverted.map((migration) => migration.id)).toEqual([17, 16]);
    expect(tables(db)).not.toContain("agent_releases");
    expect(tables(db)).not.toContain("agent_channels");
    expect(columns(db, "api_keys")).not.toContain("can_release");
    expect(columns(db, "runs")).not.toContain("decisions");
    expect(appliedIds(db).at(-1)).toBe(15);
    expect(db.prepare("SELECT id, role, name FROM api_keys").all()).toEqual([
      { id: "key_1", role: "editor", name: "ci" },
    ]);
    expect(db.prepare("SELECT id, status FROM runs").all()).toEqual([{ id: "run_1", status: "finished" }]);
    expect(db.prepare("SELECT COUNT(*) AS n FROM agent_versions").get()).toEqual({ n: 2 });
    expect(db.pragma("foreign_key_check")).toEqual([]);

    expect(applySqliteMigrations(db, UP_TO_17)).toBe(2);
    expect(db.prepare("SELECT can_release FROM api_keys").get()).toEqual({ can_release: 0 });
    expect(db.prepare("SELECT COUNT(*) AS n FROM agent_releases").get()).toEqual({ n: 0 });
    db.close();
  });

  it("leaves a database the store opens and releases on (every migration applied again)", async () => {
    const db = openMigrated();
    revertSqliteMigrations(db, { toId: 15, migrations: UP_TO_17 });
    const file = db.name;
    db.close();
    const store = new SqliteStore(file);
    try {
      expect(await store.releases.listChannels("triage")).toEqual([]);
      await store.releases.create({
        id: "rel_2",
        agentId: "triage",
        channel: "production",
        version: 2,
        previousVersion: null,
        previousReleaseId: null,
        kind: "release",
        releasedAt: "2026-11-02T00:00:00.000Z",
        releasedBy: "ops",
        notes: null,
        testRunId: null,
        overrideReason: null,
      });
      expect((await store.releases.getChannel("triage", "production"))?.version).toBe(2);
      expect((await store.getRun("run_1"))?.status).toBe("finished");
    } finally {
      await store.close();
    }
  });

  it("refuses, naming the migration, when one on the way has no down, and undoes nothing", () => {
    const db = openMigrated();
    let refusal: unknown;
    try {
      revertSqliteMigrations(db, { toId: 14, migrations: UP_TO_17 });
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(MigrationError);
    expect(refusal).toMatchObject({
      code: "migration_irreversible",
      details: { id: 15, name: "a2a_tasks", toId: 14 },
    });
    expect((refusal as Error).message).toMatch(
      /Migration 15 \(a2a_tasks\) has no down.*revert to 15 at the lowest/,
    );
    expect(tables(db)).toContain("agent_releases");
    expect(columns(db, "runs")).toContain("decisions");
    expect(appliedIds(db)).toContain(17);
    db.close();
  });

  it("refuses a migration a newer build applied, and plans without changing anything on a dry run", () => {
    const db = openMigrated();
    expect(
      revertSqliteMigrations(db, { toId: 15, dryRun: true, migrations: UP_TO_17 }).map((m) => m.id),
    ).toEqual([17, 16]);
    expect(tables(db)).toContain("agent_channels");
    expect(revertSqliteMigrations(db, { toId: 17, migrations: UP_TO_17 })).toEqual([]);
    db.prepare("INSERT INTO migrations VALUES (99, 'from_the_future', 'then')").run();
    expect(() => revertSqliteMigrations(db, { toId: 15, migrations: UP_TO_17 })).toThrow(
      expect.objectContaining({ code: "migration_unknown", details: { id: 99, toId: 15 } }),
    );
    expect(appliedIds(db)).toContain(16);
    db.close();
  });
});
