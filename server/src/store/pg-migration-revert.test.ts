import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getMissingPartsReason } from "../testing/real-parts.js";
import { startTestPostgres, type TestPostgres } from "../testing/start-postgres.js";
import { runMigrateDown } from "./migrate-down-command.js";
import { revertPgMigrations } from "./pg-migration-revert.js";
import { applyPgMigrations } from "./apply-pg-migrations.js";
import { PG_MIGRATIONS } from "./pg-migrations.js";
import { PgStore } from "./pg-store.js";

const skip = getMissingPartsReason(["postgres"]);

/** The list as the releases left it (up to 14), so that migrations appended later do not change this test. */
const UP_TO_14 = PG_MIGRATIONS.filter((migration) => migration.id <= 14);

describe.skipIf(skip)("revertPgMigrations", () => {
  let postgres: TestPostgres;
  const pools: pg.Pool[] = [];
  beforeAll(async () => {
    postgres = await startTestPostgres();
  });
  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.end()));
    await postgres?.destroy();
  });

  /** A database migrated up to 14, with an agent, a run with decisions, a key that may release, a release. */
  async function openMigrated(): Promise<{ pool: pg.Pool; url: string }> {
    const url = await postgres.createDatabase();
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    pools.push(pool);
    await applyPgMigrations(pool, UP_TO_14);
    const now = "2026-11-01T00:00:00.000Z";
    await pool.query("INSERT INTO agents VALUES ('triage', 2, $1, $1)", [now]);
    await pool.query(
      `INSERT INTO agent_versions (agent_id, version, name, spec, created_at)
       VALUES ('triage', 1, 'Triage', '{}', $1), ('triage', 2, 'Triage', '{}', $1)`,
      [now],
    );
    await pool.query(
      `INSERT INTO runs (id, agent_id, agent_version, status, query, usage, created_at, decisions)
       VALUES ('run_1', 'triage', 1, 'finished', 'q', '{}', $1, '{"approve":1}')`,
      [now],
    );
    await pool.query(
      `INSERT INTO api_keys (id, name, role, created_at, hash, can_release)
       VALUES ('key_1', 'ci', 'editor', $1, 'h', true)`,
      [now],
    );
    await pool.query(
      `INSERT INTO agent_releases (id, agent_id, channel, version, kind, released_at, released_by)
       VALUES ('rel_1', 'triage', 'production', 1, 'release', $1, 'ops')`,
      [now],
    );
    await pool.query("INSERT INTO agent_channels VALUES ('triage', 'production', 'rel_1')");
    return { pool, url };
  }

  const tables = async (pool: pg.Pool) =>
    (
      await pool.query<{ name: string }>(
        "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'",
      )
    ).rows.map((row) => row.name);
  const columns = async (pool: pg.Pool, table: string) =>
    (
      await pool.query<{ name: string }>(
        "SELECT column_name AS name FROM information_schema.columns WHERE table_name = $1",
        [table],
      )
    ).rows.map((row) => row.name);

  it("takes the releases back out (14, then 13), keeps every other row, and migrates up again", async () => {
    const { pool, url } = await openMigrated();
    const reverted = await revertPgMigrations(pool, { toId: 12, migrations: UP_TO_14 });
    expect(reverted.map((migration) => migration.id)).toEqual([14, 13]);
    expect(await tables(pool)).not.toContain("agent_releases");
    expect(await tables(pool)).not.toContain("agent_channels");
    expect(await columns(pool, "api_keys")).not.toContain("can_release");
    expect(await columns(pool, "runs")).not.toContain("decisions");
    const applied = await pool.query<{ id: number }>("SELECT max(id) AS id FROM waddle_migrations");
    expect(applied.rows[0]!.id).toBe(12);
    expect((await pool.query("SELECT id, role, name FROM api_keys")).rows).toEqual([
      { id: "key_1", role: "editor", name: "ci" },
    ]);
    expect((await pool.query("SELECT id, status FROM runs")).rows).toEqual([
      { id: "run_1", status: "finished" },
    ]);
    expect((await pool.query("SELECT count(*)::int AS n FROM agent_versions")).rows).toEqual([{ n: 2 }]);

    // Up again: the store applies 13, 14 and whatever came after, and releases work.
    const store = await PgStore.open({ connectionString: url });
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
      expect((await pool.query("SELECT can_release FROM api_keys")).rows).toEqual([{ can_release: false }]);
    } finally {
      await store.close();
    }
  });

  it("is what npm run migrate:down does when WADDLE_DATABASE_URL is set", async () => {
    const { pool, url } = await openMigrated();
    let stdout = "";
    const code = await runMigrateDown({
      argv: ["--to", "12"],
      env: { WADDLE_DATABASE_URL: url, WADDLE_DATA_DIR: "/nonexistent" },
      cwd: "/",
      stdout: { write: (text) => void (stdout += text) },
      stderr: { write: (text) => void (stdout += text) },
    });
    expect(code, stdout).toBe(0);
    expect(stdout).toMatch(
      /PostgreSQL .*undid migration 14 \(run_decisions\)\n.*undid migration 13 \(releases\)/,
    );
    expect(await tables(pool)).not.toContain("agent_channels");
  });

  it("refuses, naming the migration, when one on the way has no down, and undoes nothing", async () => {
    const { pool } = await openMigrated();
    await expect(revertPgMigrations(pool, { toId: 11, migrations: UP_TO_14 })).rejects.toMatchObject({
      code: "migration_irreversible",
      details: { id: 12, name: "a2a_tasks", toId: 11 },
    });
    expect(await tables(pool)).toContain("agent_releases");
    expect(await columns(pool, "runs")).toContain("decisions");
    await pool.query("INSERT INTO waddle_migrations VALUES (99, 'from_the_future', 'then')");
    await expect(revertPgMigrations(pool, { toId: 12, migrations: UP_TO_14 })).rejects.toMatchObject({
      code: "migration_unknown",
      details: { id: 99 },
    });
    expect(await tables(pool)).toContain("agent_channels");
  });
});
