import type { StoreMigration } from "../store-migration.js";

// Outgoing webhooks and their outbox (issue 34), kept here so that the two migration lists stay lists.

/**
 * SQLite migration 21: `webhooks` (each signing secret sealed), `webhook_outbox` (one row per notification
 * and webhook, with its attempts, due time and lease; times in ms since the epoch) and
 * `webhook_deliveries` (every attempt, as JSON, newest by rowid).
 */
export const SQLITE_WEBHOOKS_MIGRATION: StoreMigration = {
  id: 21,
  name: "webhooks",
  sql: `
    CREATE TABLE webhooks (
      id TEXT PRIMARY KEY,
      url TEXT NOT NULL,
      events TEXT NOT NULL,
      agents TEXT,
      format TEXT NOT NULL,
      enabled INTEGER NOT NULL,
      sealed_secret TEXT NOT NULL,
      created_at TEXT NOT NULL,
      created_by TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );
    CREATE TABLE webhook_outbox (
      id TEXT PRIMARY KEY,
      webhook_id TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
      body TEXT NOT NULL,
      state TEXT NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 0,
      created_at_ms INTEGER NOT NULL,
      next_attempt_at_ms INTEGER,
      lease_until_ms INTEGER
    );
    CREATE INDEX webhook_outbox_due ON webhook_outbox (next_attempt_at_ms) WHERE state = 'pending';
    CREATE INDEX webhook_outbox_by_webhook ON webhook_outbox (webhook_id);
    CREATE TABLE webhook_deliveries (
      id TEXT PRIMARY KEY,
      webhook_id TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
      record TEXT NOT NULL
    );
    CREATE INDEX webhook_deliveries_by_webhook ON webhook_deliveries (webhook_id);
  `,
  down: `
    DROP TABLE webhook_deliveries;
    DROP TABLE webhook_outbox;
    DROP TABLE webhooks;
  `,
};

/** PostgreSQL migration 18: as the SQLite migration 21, with `position` for the order of attempts. */
export const PG_WEBHOOKS_MIGRATION: StoreMigration = {
  id: 18,
  name: "webhooks",
  sql: `
    CREATE TABLE webhooks (
      id text PRIMARY KEY,
      url text NOT NULL,
      events text NOT NULL,
      agents text,
      format text NOT NULL,
      enabled boolean NOT NULL,
      sealed_secret text NOT NULL,
      created_at text NOT NULL,
      created_by text NOT NULL,
      updated_at text NOT NULL,
      position bigserial
    );
    CREATE TABLE webhook_outbox (
      id text PRIMARY KEY,
      webhook_id text NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
      body text NOT NULL,
      state text NOT NULL,
      attempts integer NOT NULL DEFAULT 0,
      created_at_ms bigint NOT NULL,
      next_attempt_at_ms bigint,
      lease_until_ms bigint
    );
    CREATE INDEX webhook_outbox_due ON webhook_outbox (next_attempt_at_ms) WHERE state = 'pending';
    CREATE INDEX webhook_outbox_by_webhook ON webhook_outbox (webhook_id);
    CREATE TABLE webhook_deliveries (
      id text PRIMARY KEY,
      webhook_id text NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
      record text NOT NULL,
      position bigserial
    );
    CREATE INDEX webhook_deliveries_by_webhook ON webhook_deliveries (webhook_id, position);
  `,
  down: `
    DROP TABLE webhook_deliveries;
    DROP TABLE webhook_outbox;
    DROP TABLE webhooks;
  `,
};
