import type Database from "better-sqlite3";

/**
 * A write transaction, begun with `BEGIN IMMEDIATE`: it takes SQLite's write lock before its first read,
 * waiting for it under the connection's `busy_timeout`.
 *
 * A deferred transaction (better-sqlite3's default) that reads and then writes cannot wait: once it holds
 * a read snapshot, SQLite refuses the write lock at once with `SQLITE_BUSY` instead of calling the busy
 * handler. The server's checkpoint worker holds that lock during a RESTART checkpoint
 * (server/docs/wal-checkpoints.md), so every transaction here that writes goes through this.
 */
export function writeTransaction<A extends unknown[], R>(
  db: Database.Database,
  body: (...args: A) => R,
): (...args: A) => R {
  return db.transaction(body).immediate;
}
