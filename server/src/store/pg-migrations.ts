import { PG_INBOX_MIGRATION } from "./inbox/inbox-migrations.js";
import { PG_WEBHOOKS_MIGRATION } from "./webhooks/webhook-migrations.js";
import { PG_TRIGGERS_MIGRATION } from "./triggers/trigger-migrations.js";
import type { StoreMigration } from "./store-migration.js";

/**
 * PostgreSQL schema changes in order; each runs once, in a transaction, recorded in `waddle_migrations`.
 * A `down` undoes one (`revertPgMigrations`, `npm run migrate:down`); give one to each that can be undone.
 * JSON documents are `text` as in SQLite: they are written and read whole, never queried inside, and text
 * keeps what `jsonb` would refuse (a NUL escape) or reorder.
 */
export const PG_MIGRATIONS: readonly StoreMigration[] = [
  {
    id: 1,
    name: "initial",
    sql: `
      CREATE TABLE agents (
        id text PRIMARY KEY,
        latest_version integer NOT NULL,
        created_at text NOT NULL,
        updated_at text NOT NULL
      );
      CREATE TABLE agent_versions (
        agent_id text NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
        version integer NOT NULL,
        name text NOT NULL,
        message text,
        spec text NOT NULL,
        created_at text NOT NULL,
        PRIMARY KEY (agent_id, version)
      );
      CREATE TABLE runs (
        id text PRIMARY KEY,
        agent_id text NOT NULL,
        agent_version integer NOT NULL,
        status text NOT NULL,
        query text NOT NULL,
        result text,
        usage text NOT NULL,
        pause text,
        error text,
        offline boolean NOT NULL DEFAULT false,
        last_seq integer NOT NULL DEFAULT 0,
        created_at text NOT NULL,
        started_at text,
        finished_at text,
        tool_context_keys text,
        position bigint GENERATED ALWAYS AS IDENTITY,
        epoch integer NOT NULL DEFAULT 0,
        owner text,
        lease_until timestamptz,
        cancel_requested boolean NOT NULL DEFAULT false,
        work text
      );
      CREATE INDEX runs_by_agent ON runs (agent_id, position);
      CREATE INDEX runs_by_position ON runs (position);
      CREATE INDEX runs_live ON runs (status) WHERE status IN ('queued', 'running', 'paused');
      CREATE TABLE run_events (
        run_id text NOT NULL,
        seq integer NOT NULL,
        type text NOT NULL,
        event text NOT NULL,
        PRIMARY KEY (run_id, seq)
      );
      CREATE TABLE paused_states (
        token text PRIMARY KEY,
        run_id text,
        state text NOT NULL,
        created_at text NOT NULL
      );
      CREATE TABLE tasks (
        run_id text NOT NULL,
        task_id text NOT NULL,
        record text NOT NULL,
        position bigint GENERATED ALWAYS AS IDENTITY,
        PRIMARY KEY (run_id, task_id)
      );
      CREATE TABLE run_checkpoints (
        run_id text PRIMARY KEY,
        seq integer NOT NULL,
        state text NOT NULL
      );
    `,
  },
  {
    id: 2,
    // The keys of requests that may be retried and the run each started (see the SQLite migration 5).
    name: "request_keys",
    sql: `
      CREATE TABLE request_keys (
        scope text NOT NULL,
        key text NOT NULL,
        fingerprint text NOT NULL,
        run_id text,
        created_at bigint NOT NULL,
        expires_at bigint NOT NULL,
        PRIMARY KEY (scope, key)
      );
      CREATE INDEX request_keys_expiry ON request_keys (expires_at);
    `,
  },
  {
    id: 3,
    // Sessions and their logs (see the SQLite migration 6).
    name: "sessions",
    sql: `
      CREATE TABLE sessions (
        id text PRIMARY KEY,
        agent_id text NOT NULL,
        record text NOT NULL,
        summary text NOT NULL,
        updated_at text NOT NULL
      );
      CREATE INDEX sessions_by_activity ON sessions (agent_id, updated_at);
      CREATE INDEX sessions_by_time ON sessions (updated_at);
      CREATE TABLE session_events (
        session_id text NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        seq integer NOT NULL,
        event text NOT NULL,
        PRIMARY KEY (session_id, seq)
      );
    `,
  },
  {
    id: 4,
    // Where a run belongs (see the SQLite migration 7).
    name: "run_origin",
    sql: `
      ALTER TABLE runs ADD COLUMN origin text;
      ALTER TABLE runs ADD COLUMN session_id text;
      CREATE INDEX runs_by_session ON runs (session_id);
    `,
  },
  {
    id: 5,
    // Credentials and added allow-list entries (see the SQLite migration 8).
    name: "credentials",
    sql: `
      CREATE TABLE credentials (
        name text PRIMARY KEY,
        kind text NOT NULL,
        sealed text NOT NULL,
        last4 text NOT NULL,
        base_url text,
        models text,
        updated_at text NOT NULL
      );
      CREATE TABLE allow_list (
        list text NOT NULL,
        entry text NOT NULL,
        position integer NOT NULL,
        PRIMARY KEY (list, entry)
      );
      ALTER TABLE runs ADD COLUMN offline_chosen boolean NOT NULL DEFAULT false;
    `,
  },
  {
    id: 6,
    // Versions saved with errors, and each agent's unsaved edits (see the SQLite migration 9).
    name: "agent_drafts",
    sql: `
      ALTER TABLE agent_versions ADD COLUMN invalid boolean NOT NULL DEFAULT false;
      CREATE TABLE agent_drafts (
        agent_id text PRIMARY KEY,
        base_version integer,
        spec text NOT NULL,
        updated_at text NOT NULL
      );
      `,
  },
  {
    id: 9,
    // Tests from runs (see the SQLite migration 12).
    name: "agent_tests",
    sql: `
      CREATE TABLE test_suites (
        agent_id text PRIMARY KEY,
        cases text NOT NULL,
        updated_at text NOT NULL
      );
      CREATE TABLE test_runs (
        id text PRIMARY KEY,
        agent_id text NOT NULL,
        record text NOT NULL,
        created_at text NOT NULL
      );
      CREATE INDEX test_runs_by_agent ON test_runs (agent_id, created_at);
    `,
  },
  {
    id: 8,
    // Each run's steps and calls (see the SQLite migration 11).
    name: "run_call_records",
    sql: `
      CREATE TABLE run_call_records (
        run_id text NOT NULL,
        seq integer NOT NULL,
        record text NOT NULL,
        PRIMARY KEY (run_id, seq)
      );
    `,
  },
  {
    id: 10,
    // API keys (see the SQLite migration 13).
    name: "api_keys",
    sql: `
      CREATE TABLE api_keys (
        id text PRIMARY KEY,
        name text NOT NULL,
        role text NOT NULL,
        agents text,
        can_decide boolean NOT NULL DEFAULT false,
        rate_limit text,
        expires_at text,
        created_at text NOT NULL,
        last_used_at text,
        revoked_at text,
        hash text NOT NULL
      );
    `,
  },
  {
    id: 11,
    // The audit log (see the SQLite migration 14): append-only, so the table refuses UPDATE and DELETE.
    name: "audit_log",
    sql: `
      CREATE TABLE audit_log (
        seq bigserial PRIMARY KEY,
        id text NOT NULL UNIQUE,
        at text NOT NULL,
        actor text NOT NULL,
        actor_key_id text,
        action text NOT NULL,
        target_type text NOT NULL,
        target_id text NOT NULL,
        details text NOT NULL,
        ip text
      );
      CREATE INDEX audit_log_by_at ON audit_log (at);
      CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'audit_log is append-only'; END;
      $$;
      CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log
        FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
    `,
  },
  {
    id: 12,
    // A2A tasks (see the SQLite migration 15).
    name: "a2a_tasks",
    sql: `
      CREATE TABLE a2a_tasks (
        task_id text PRIMARY KEY,
        agent_id text NOT NULL,
        context_id text NOT NULL,
        run_id text,
        task text NOT NULL,
        updated_at bigint NOT NULL
      );
    `,
  },
  {
    id: 13,
    // Releases (see the SQLite migration 16).
    name: "releases",
    sql: `
      CREATE TABLE agent_releases (
        position bigserial PRIMARY KEY,
        id text NOT NULL UNIQUE,
        agent_id text NOT NULL,
        channel text NOT NULL,
        version integer NOT NULL,
        previous_version integer,
        previous_release_id text,
        kind text NOT NULL,
        released_at text NOT NULL,
        released_by text NOT NULL,
        notes text,
        test_run_id text,
        override_reason text
      );
      CREATE INDEX agent_releases_by_agent ON agent_releases (agent_id, channel);
      CREATE TABLE agent_channels (
        agent_id text NOT NULL,
        name text NOT NULL,
        release_id text NOT NULL,
        PRIMARY KEY (agent_id, name)
      );
      ALTER TABLE api_keys ADD COLUMN can_release boolean NOT NULL DEFAULT false;
    `,
    down: `
      DROP TABLE agent_channels;
      DROP TABLE agent_releases;
      ALTER TABLE api_keys DROP COLUMN can_release;
    `,
  },
  {
    id: 14,
    // How people decided a run's pauses (see the SQLite migration 17).
    name: "run_decisions",
    sql: "ALTER TABLE runs ADD COLUMN decisions text;",
    down: "ALTER TABLE runs DROP COLUMN decisions;",
  },
  {
    id: 15,
    // Shadow comparisons (see the SQLite migration 18).
    name: "shadow_reports",
    sql: `
      CREATE TABLE shadow_reports (
        position bigserial PRIMARY KEY,
        id text NOT NULL UNIQUE,
        agent_id text NOT NULL,
        candidate_version integer NOT NULL,
        created_at text NOT NULL,
        summary text NOT NULL,
        cases text NOT NULL
      );
      CREATE INDEX shadow_reports_by_agent ON shadow_reports (agent_id);
      ALTER TABLE agent_releases ADD COLUMN shadow_report_id text;
    `,
    down: `
      ALTER TABLE agent_releases DROP COLUMN shadow_report_id;
      DROP TABLE shadow_reports;
    `,
  },
  {
    id: 16,
    // Public chats, their visitors' sessions and ratings of runs (see the SQLite migration 19).
    name: "public_chats",
    sql: `
      CREATE TABLE public_chats (
        agent_id text PRIMARY KEY,
        public_id text NOT NULL UNIQUE,
        key_id text NOT NULL UNIQUE,
        publishable_key text NOT NULL,
        visitor_secret text NOT NULL,
        settings text NOT NULL,
        created_at text NOT NULL,
        updated_at text NOT NULL,
        updated_by text NOT NULL
      );
      CREATE TABLE public_chat_sessions (
        position bigserial PRIMARY KEY,
        session_id text NOT NULL UNIQUE,
        public_id text NOT NULL,
        agent_id text NOT NULL,
        visitor_id text NOT NULL,
        created_at text NOT NULL
      );
      CREATE INDEX public_chat_sessions_by_visitor ON public_chat_sessions (public_id, visitor_id);
      CREATE TABLE run_ratings (
        run_id text PRIMARY KEY,
        agent_id text NOT NULL,
        session_id text,
        rating text NOT NULL,
        comment text,
        created_at text NOT NULL
      );
      CREATE INDEX run_ratings_by_rating ON run_ratings (rating);
    `,
    down: `
      DROP TABLE run_ratings;
      DROP TABLE public_chat_sessions;
      DROP TABLE public_chats;
    `,
  },
  PG_INBOX_MIGRATION,
  PG_WEBHOOKS_MIGRATION,
  PG_TRIGGERS_MIGRATION,
];
