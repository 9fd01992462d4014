import type Database from "better-sqlite3";
import { SQLITE_MIGRATIONS } from "./sqlite-migrations.js";
import { writeTransaction } from "./sqlite-write-transaction.js";
import { getMigrationsToRevert, type StoreMigration } from "./store-migration.js";

/**
 * Undoes the applied migrations above `toId`, latest first, each in its own transaction with its row in
 * `migrations`, so that the next open applies them again. Refuses (`MigrationError`, nothing undone) when one
 * of them has no `down`. Returns the migrations undone; with `dryRun`, those it would undo.
 */
export function revertSqliteMigrations(
  db: Database.Database,
  options: { toId: number; dryRun?: boolean; migrations?: readonly StoreMigration[] },
): StoreMigration[] {
  const hasTable = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'migrations'")
    .get();
  const applied = hasTable
    ? db
        .prepare("SELECT id FROM migrations")
        .all()
        .map((row) => (row as { id: number }).id)
    : [];
  const plan = getMigrationsToRevert({
    migrations: options.migrations ?? SQLITE_MIGRATIONS,
    applied,
    toId: options.toId,
  });
  if (options.dryRun) return plan;
  const forget = db.prepare("DELETE FROM migrations WHERE id = ?");
  for (const migration of plan) {
    writeTransaction(db, () => {
      db.exec(migration.down!);
      forget.run(migration.id);
    })();
  }
  return plan;
}
