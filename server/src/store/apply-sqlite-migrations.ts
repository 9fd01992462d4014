import type Database from "better-sqlite3";
import { SQLITE_MIGRATIONS } from "./sqlite-migrations.js";
import { writeTransaction } from "./sqlite-write-transaction.js";
import type { StoreMigration } from "./store-migration.js";

/** Applies the migrations the database has not seen yet (of `migrations`: all by default); returns how many ran. */
export function applySqliteMigrations(
  db: Database.Database,
  migrations: readonly StoreMigration[] = SQLITE_MIGRATIONS,
): number {
  db.exec(`CREATE TABLE IF NOT EXISTS migrations (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL
  )`);
  const applied = new Set(
    db
      .prepare("SELECT id FROM migrations")
      .all()
      .map((row) => (row as { id: number }).id),
  );
  const record = db.prepare("INSERT INTO migrations (id, name, applied_at) VALUES (?, ?, ?)");
  let count = 0;
  for (const migration of migrations) {
    if (applied.has(migration.id)) continue;
    writeTransaction(db, () => {
      db.exec(migration.sql);
      record.run(migration.id, migration.name, new Date().toISOString());
    })();
    count += 1;
  }
  return count;
}
