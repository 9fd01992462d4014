import type pg from "pg";
import { MIGRATION_LOCK } from "./apply-pg-migrations.js";
import { PG_MIGRATIONS } from "./pg-migrations.js";
import { getMigrationsToRevert, type StoreMigration } from "./store-migration.js";

/**
 * Undoes the applied migrations above `toId`, latest first, each in its own transaction with its row in
 * `waddle_migrations`, under the lock instances migrate under (so that none migrates meanwhile). Refuses
 * (`MigrationError`, nothing undone) when one of them has no `down`. Returns the migrations undone; with
 * `dryRun`, those it would undo. Stop every instance first: a running one would miss its tables.
 */
export async function revertPgMigrations(
  pool: pg.Pool,
  options: { toId: number; dryRun?: boolean; migrations?: readonly StoreMigration[] },
): Promise<StoreMigration[]> {
  const client = await pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
    const exists = await client.query("SELECT to_regclass('waddle_migrations') AS name");
    const applied =
      exists.rows[0]?.name === null
        ? []
        : (await client.query<{ id: number }>("SELECT id FROM waddle_migrations")).rows.map((row) => row.id);
    const plan = getMigrationsToRevert({
      migrations: options.migrations ?? PG_MIGRATIONS,
      applied,
      toId: options.toId,
    });
    if (options.dryRun) return plan;
    for (const migration of plan) {
      await client.query("BEGIN");
      try {
        await client.query(migration.down!);
        await client.query("DELETE FROM waddle_migrations WHERE id = $1", [migration.id]);
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        throw error;
      }
    }
    return plan;
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => undefined);
    client.release();
  }
}
