import type { StoreMigration } from "../store-migration.js";

// Triggers' schema (issue 34), kept here so that the two migration lists stay lists.

/**
 * SQLite migration 22: `triggers` (settings as JSON, a webhook's secret), `trigger_fires` (newest by
 * `fired_at`, waiting ones found by a partial index), `trigger_ticks` (one row per tick of a schedule: the
 * claim that makes it fire once, with a lease so that a dead claimer's tick is taken again) and
 * `trigger_keys` (webhook idempotency keys and the run each started).
 */
export const SQLITE_TRIGGERS_MIGRATION: StoreMigration = {
  id: 22,
  name: "triggers",
  sql: `
    CREATE TABLE triggers (
      id TEXT PRIMARY KEY,
      agent_id TEXT NOT NULL,
      kind TEXT NOT NULL,
      name TEXT,
      enabled INTEGER NOT NULL,
      settings TEXT NOT NULL,
      secret TEXT,
      created_at TEXT NOT NULL,
      created_by TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      last_fired_at TEXT
    );
    CREATE INDEX triggers_by_agent ON triggers (agent_id);
    CREATE TABLE trigger_fires (
      id TEXT PRIMARY KEY,
      trigger_id TEXT NOT NULL,
      fired_at TEXT NOT NULL,
      status TEXT NOT NULL,
      run_id TEXT,
      error TEXT
    );
    CREATE INDEX trigger_fires_by_trigger ON trigger_fires (trigger_id, fired_at);
    CREATE INDEX trigger_fires_queued ON trigger_fires (fired_at) WHERE status = 'queued';
    CREATE TABLE trigger_ticks (
      trigger_id TEXT NOT NULL,
      tick TEXT NOT NULL,
      owner TEXT NOT NULL,
      lease_until INTEGER NOT NULL,
      done INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (trigger_id, tick)
    ) WITHOUT ROWID;
    CREATE INDEX trigger_ticks_open ON trigger_ticks (lease_until) WHERE done = 0;
    CREATE TABLE trigger_keys (
      trigger_id TEXT NOT NULL,
      key TEXT NOT NULL,
      run_id TEXT NOT NULL,
      created_at TEXT NOT NULL,
      PRIMARY KEY (trigger_id, key)
    ) WITHOUT ROWID;
  `,
  down: `
    DROP TABLE trigger_keys;
    DROP TABLE trigger_ticks;
    DROP TABLE trigger_fires;
    DROP TABLE triggers;
  `,
};

/** PostgreSQL migration 19: as the SQLite migration 22, with leases on PostgreSQL's clock. */
export const PG_TRIGGERS_MIGRATION: StoreMigration = {
  id: 19,
  name: "triggers",
  sql: `
    CREATE TABLE triggers (
      position bigserial,
      id text PRIMARY KEY,
      agent_id text NOT NULL,
      kind text NOT NULL,
      name text,
      enabled boolean NOT NULL,
      settings text NOT NULL,
      secret text,
      created_at text NOT NULL,
      created_by text NOT NULL,
      updated_at text NOT NULL,
      last_fired_at text
    );
    CREATE INDEX triggers_by_agent ON triggers (agent_id);
    CREATE TABLE trigger_fires (
      position bigserial,
      id text PRIMARY KEY,
      trigger_id text NOT NULL,
      fired_at text NOT NULL,
      status text NOT NULL,
      run_id text,
      error text
    );
    CREATE INDEX trigger_fires_by_trigger ON trigger_fires (trigger_id, fired_at);
    CREATE INDEX trigger_fires_queued ON trigger_fires (fired_at) WHERE status = 'queued';
    CREATE TABLE trigger_ticks (
      trigger_id text NOT NULL,
      tick text NOT NULL,
      owner text NOT NULL,
      lease_until timestamptz NOT NULL,
      done boolean NOT NULL DEFAULT false,
      PRIMARY KEY (trigger_id, tick)
    );
    CREATE INDEX trigger_ticks_open ON trigger_ticks (lease_until) WHERE NOT done;
    CREATE TABLE trigger_keys (
      trigger_id text NOT NULL,
      key text NOT NULL,
      run_id text NOT NULL,
      created_at text NOT NULL,
      PRIMARY KEY (trigger_id, key)
    );
  `,
  down: `
    DROP TABLE trigger_keys;
    DROP TABLE trigger_ticks;
    DROP TABLE trigger_fires;
    DROP TABLE triggers;
  `,
};
