import type { StoreMigration } from "../store-migration.js";

// The approvals inbox's schema (issue 34), kept here so that the two migration lists stay lists.

/**
 * SQLite migration 20: `inbox_marks` (what the inbox adds to a waiting item: assignee, snooze, the
 * notices sent), and `sessions.pending_merges`, the count of a session's held merges, with a partial index
 * so that the inbox finds the sessions holding any without reading every session.
 */
export const SQLITE_INBOX_MIGRATION: StoreMigration = {
  id: 20,
  name: "inbox",
  sql: `
    CREATE TABLE inbox_marks (
      item_id TEXT PRIMARY KEY,
      token TEXT NOT NULL,
      assignee TEXT,
      snoozed_until TEXT,
      created_noticed_at TEXT,
      due_soon_noticed_at TEXT,
      updated_at TEXT NOT NULL
    );
    ALTER TABLE sessions ADD COLUMN pending_merges INTEGER NOT NULL DEFAULT 0;
    UPDATE sessions SET pending_merges = COALESCE(json_array_length(record, '$.pendingMerges'), 0);
    CREATE INDEX sessions_with_pending_merges ON sessions (updated_at) WHERE pending_merges > 0;
  `,
  down: `
    DROP INDEX sessions_with_pending_merges;
    ALTER TABLE sessions DROP COLUMN pending_merges;
    DROP TABLE inbox_marks;
  `,
};

/** PostgreSQL migration 17: as the SQLite migration 20. */
export const PG_INBOX_MIGRATION: StoreMigration = {
  id: 17,
  name: "inbox",
  sql: `
    CREATE TABLE inbox_marks (
      item_id text PRIMARY KEY,
      token text NOT NULL,
      assignee text,
      snoozed_until text,
      created_noticed_at text,
      due_soon_noticed_at text,
      updated_at text NOT NULL
    );
    ALTER TABLE sessions ADD COLUMN pending_merges integer NOT NULL DEFAULT 0;
    UPDATE sessions SET pending_merges = COALESCE(json_array_length(record::json -> 'pendingMerges'), 0);
    CREATE INDEX sessions_with_pending_merges ON sessions (updated_at) WHERE pending_merges > 0;
  `,
  down: `
    DROP INDEX sessions_with_pending_merges;
    ALTER TABLE sessions DROP COLUMN pending_merges;
    DROP TABLE inbox_marks;
  `,
};
