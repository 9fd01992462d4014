import { mkdirSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { applySqliteMigrations } from "./apply-sqlite-migrations.js";
import { WalCheckpointer } from "./wal-checkpointer.js";

export interface SqliteStoreOptions {
  /**
   * Checkpoint the WAL from a worker thread on a timer instead of inside commits (the server does; see
   * server/docs/wal-checkpoints.md). Off by default: short-lived users (the CLI, tests) need no thread.
   */
  backgroundCheckpoints?: boolean | { intervalMs?: number; restartFrames?: number };
  /** Told when background checkpoints stop working and SQLite's own took over again. */
  onCheckpointFailure?: (error: Error) => void;
}

/** SQLite's default `wal_autocheckpoint`, restored when the checkpoint worker fails. */
const AUTOCHECKPOINT_PAGES = 1000;
/** What the WAL file is cut back to when it starts over, after a burst made it grow. */
const WAL_SIZE_LIMIT_BYTES = 16 * 1024 * 1024;

/**
 * Opens (creating when needed) the SQLite file at `filename` (`":memory:"` for a throwaway one) in WAL
 * mode with the store's pragmas and migrations, and with `backgroundCheckpoints` its checkpoint worker.
 */
export function openSqliteDatabase(
  filename: string,
  options: SqliteStoreOptions,
): { db: Database.Database; checkpointer: WalCheckpointer | undefined } {
  if (filename !== ":memory:") mkdirSync(path.dirname(filename), { recursive: true });
  const db = new Database(filename);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("foreign_keys = ON");
  db.pragma("busy_timeout = 5000");
  applySqliteMigrations(db);
  const background = options.backgroundCheckpoints;
  if (!background || filename === ":memory:") return { db, checkpointer: undefined };
  db.pragma("wal_autocheckpoint = 0");
  db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
  const checkpointer = new WalCheckpointer({
    filename,
    ...(typeof background === "object" ? background : {}),
    onFailure: (error) => {
      if (db.open) db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
      options.onCheckpointFailure?.(error);
    },
  });
  return { db, checkpointer };
}
