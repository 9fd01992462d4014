import type pg from "pg";
import { PG_MIGRATIONS } from "./pg-migrations.js";
import type { StoreMigration } from "./store-migration.js";

/** A fixed key for pg_advisory_lock: instances starting together migrate (or revert) one at a time. */
export const MIGRATION_LOCK = 7_202_611;

/**
 * Applies the migrations the database has not seen yet (of `migrations`: all by default), under an advisory
 * lock; returns how many ran.
 */
export async function applyPgMigrations(
  pool: pg.Pool,
  migrations: readonly StoreMigration[] = PG_MIGRATIONS,
): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
    await client.query(`CREATE TABLE IF NOT EXISTS waddle_migrations (
      id integer PRIMARY KEY,
      name text NOT NULL,
      applied_at text NOT NULL
    )`);
    const applied = new Set(
      (await client.query<{ id: number }>("SELECT id FROM waddle_migrations")).rows.map((row) => row.id),
    );
    let count = 0;
    for (const migration of migrations) {
      if (applied.has(migration.id)) continue;
      await client.query("BEGIN");
      try {
        await client.query(migration.sql);
        await client.query("INSERT INTO waddle_migrations (id, name, applied_at) VALUES ($1, $2, $3)", [
          migration.id,
          migration.name,
          new Date().toISOString(),
        ]);
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        throw error;
      }
      count += 1;
    }
    return count;
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => undefined);
    client.release();
  }
}
