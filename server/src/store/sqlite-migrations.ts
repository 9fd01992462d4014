import { SQLITE_INBOX_MIGRATION } from "./inbox/inbox-migrations.js";
import { SQLITE_WEBHOOKS_MIGRATION } from "./webhooks/webhook-migrations.js";
import { SQLITE_TRIGGERS_MIGRATION } from "./triggers/trigger-migrations.js";
import type { StoreMigration } from "./store-migration.js";

/**
 * Schema changes in order; each runs once, in a transaction, and is recorded in `migrations`. A `down`
 * undoes one (`revertSqliteMigrations`, `npm run migrate:down`); give one to each migration that can be.
 */
export const SQLITE_MIGRATIONS: readonly StoreMigration[] = [
  {
    id: 1,
    name: "initial",
    sql: `
      CREATE TABLE agents (
        id TEXT PRIMARY KEY,
        latest_version INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE TABLE agent_versions (
        agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
        version INTEGER NOT NULL,
        name TEXT NOT NULL,
        message TEXT,
        spec TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (agent_id, version)
      ) WITHOUT ROWID;
      CREATE TABLE runs (
        id TEXT PRIMARY KEY,
        agent_id TEXT NOT NULL,
        agent_version INTEGER NOT NULL,
        status TEXT NOT NULL,
        query TEXT NOT NULL,
        result TEXT,
        usage TEXT NOT NULL,
        pause TEXT,
        error TEXT,
        offline INTEGER NOT NULL DEFAULT 0,
        last_seq INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        started_at TEXT,
        finished_at TEXT,
        position INTEGER NOT NULL
      );
      CREATE INDEX runs_by_agent ON runs (agent_id, position);
      CREATE INDEX runs_by_status ON runs (status);
      CREATE TABLE run_events (
        run_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        type TEXT NOT NULL,
        event TEXT NOT NULL,
        PRIMARY KEY (run_id, seq)
      ) WITHOUT ROWID;
      CREATE TABLE paused_states (
        token TEXT PRIMARY KEY,
        run_id TEXT,
        state TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE TABLE tasks (
        run_id TEXT NOT NULL,
        task_id TEXT NOT NULL,
        record TEXT NOT NULL,
        PRIMARY KEY (run_id, task_id)
      );
    `,
  },
  {
    id: 2,
    // createRun reads MAX(position) and listRuns sorts by it: without an index both scan every run.
    name: "runs_by_position",
    sql: "CREATE INDEX runs_by_position ON runs (position);",
  },
  {
    id: 3,
    // The keys (never the values) of a run's toolContext, so a resume after a restart can ask for it again.
    name: "run_tool_context_keys",
    sql: "ALTER TABLE runs ADD COLUMN tool_context_keys TEXT;",
  },
  {
    id: 4,
    // Claims (epoch, owner, lease), cancel requests, queued work and step checkpoints: queue mode's fields,
    // kept in every store so that one conformance suite covers them.
    name: "run_claims_and_checkpoints",
    sql: `
      ALTER TABLE runs ADD COLUMN epoch INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE runs ADD COLUMN owner TEXT;
      ALTER TABLE runs ADD COLUMN lease_until INTEGER;
      ALTER TABLE runs ADD COLUMN cancel_requested INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE runs ADD COLUMN work TEXT;
      CREATE TABLE run_checkpoints (
        run_id TEXT PRIMARY KEY,
        seq INTEGER NOT NULL,
        state TEXT NOT NULL
      );
    `,
  },
  {
    id: 5,
    // The keys of requests that may be retried (`Idempotency-Key`, a client's retry) and the run each
    // started, so that a retry answers from that run instead of running the agent again.
    name: "request_keys",
    sql: `
      CREATE TABLE request_keys (
        scope TEXT NOT NULL,
        key TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        run_id TEXT,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        PRIMARY KEY (scope, key)
      );
      CREATE INDEX request_keys_expiry ON request_keys (expires_at);
    `,
  },
  {
    id: 6,
    // Sessions: each record (the fold of its log) with its summary, and the log itself.
    name: "sessions",
    sql: `
      CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        agent_id TEXT NOT NULL,
        record TEXT NOT NULL,
        summary TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX sessions_by_activity ON sessions (agent_id, updated_at);
      CREATE INDEX sessions_by_time ON sessions (updated_at);
      CREATE TABLE session_events (
        session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        event TEXT NOT NULL,
        PRIMARY KEY (session_id, seq)
      );
    `,
  },
  {
    id: 7,
    // Where a run belongs (a session's turn, or its background task): {sessionId, turn, kind, parentRunId}.
    name: "run_origin",
    sql: `
      ALTER TABLE runs ADD COLUMN origin TEXT;
      ALTER TABLE runs ADD COLUMN session_id TEXT;
      CREATE INDEX runs_by_session ON runs (session_id);
    `,
  },
  {
    id: 8,
    // Credentials kept from the browser (values sealed with AES-256-GCM) and added allow-list entries;
    // runs the person chose to run on the offline model.
    name: "credentials",
    sql: `
      CREATE TABLE credentials (
        name TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        sealed TEXT NOT NULL,
        last4 TEXT NOT NULL,
        base_url TEXT,
        models TEXT,
        updated_at TEXT NOT NULL
      );
      CREATE TABLE allow_list (
        list TEXT NOT NULL,
        entry TEXT NOT NULL,
        position INTEGER NOT NULL,
        PRIMARY KEY (list, entry)
      );
      ALTER TABLE runs ADD COLUMN offline_chosen INTEGER NOT NULL DEFAULT 0;
    `,
  },
  {
    id: 9,
    // Versions saved with errors (runs refuse them), and each agent's unsaved edits (issue 21).
    name: "agent_drafts",
    sql: `
      ALTER TABLE agent_versions ADD COLUMN invalid INTEGER NOT NULL DEFAULT 0;
      CREATE TABLE agent_drafts (
        agent_id TEXT PRIMARY KEY,
        base_version INTEGER,
        spec TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      `,
  },
  {
    id: 12,
    // Tests from runs: each agent's suite and its test runs, one JSON document each; runs of test cases are
    // told apart by their origin's purpose (listed only when asked).
    name: "agent_tests",
    sql: `
      CREATE TABLE test_suites (
        agent_id TEXT PRIMARY KEY,
        cases TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE TABLE test_runs (
        id TEXT PRIMARY KEY,
        agent_id TEXT NOT NULL,
        record TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX test_runs_by_agent ON test_runs (agent_id, created_at);
    `,
  },
  {
    id: 11,
    // Each run's steps and calls (the planner's call records): what a fork rebuilds and reuses.
    name: "run_call_records",
    sql: `
      CREATE TABLE run_call_records (
        run_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        record TEXT NOT NULL,
        PRIMARY KEY (run_id, seq)
      );
    `,
  },
  {
    id: 13,
    // API keys with roles (issue 24): the secret only as a salted scrypt hash.
    name: "api_keys",
    sql: `
      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        role TEXT NOT NULL,
        agents TEXT,
        can_decide INTEGER NOT NULL DEFAULT 0,
        rate_limit TEXT,
        expires_at TEXT,
        created_at TEXT NOT NULL,
        last_used_at TEXT,
        revoked_at TEXT,
        hash TEXT NOT NULL
      );
    `,
  },
  {
    id: 14,
    // The audit log (server/docs/audit.md): append-only, so the table refuses UPDATE and DELETE itself.
    name: "audit_log",
    sql: `
      CREATE TABLE audit_log (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        at TEXT NOT NULL,
        actor TEXT NOT NULL,
        actor_key_id TEXT,
        action TEXT NOT NULL,
        target_type TEXT NOT NULL,
        target_id TEXT NOT NULL,
        details TEXT NOT NULL,
        ip TEXT
      );
      CREATE INDEX audit_log_by_at ON audit_log (at);
      CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
        BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
      CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
        BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
    `,
  },
  {
    id: 15,
    // A2A tasks (`/a2a/:agentId`): the task the A2A SDK saves, the run it maps to and its context (a session).
    name: "a2a_tasks",
    sql: `
      CREATE TABLE a2a_tasks (
        task_id TEXT PRIMARY KEY,
        agent_id TEXT NOT NULL,
        context_id TEXT NOT NULL,
        run_id TEXT,
        task TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      );
    `,
  },
  {
    id: 16,
    // Releases (issue 32): each channel points at its current release; releases are kept newest last.
    name: "releases",
    sql: `
      CREATE TABLE agent_releases (
        id TEXT PRIMARY KEY,
        agent_id TEXT NOT NULL,
        channel TEXT NOT NULL,
        version INTEGER NOT NULL,
        previous_version INTEGER,
        previous_release_id TEXT,
        kind TEXT NOT NULL,
        released_at TEXT NOT NULL,
        released_by TEXT NOT NULL,
        notes TEXT,
        test_run_id TEXT,
        override_reason TEXT
      );
      CREATE INDEX agent_releases_by_agent ON agent_releases (agent_id, channel);
      CREATE TABLE agent_channels (
        agent_id TEXT NOT NULL,
        name TEXT NOT NULL,
        release_id TEXT NOT NULL,
        PRIMARY KEY (agent_id, name)
      ) WITHOUT ROWID;
      ALTER TABLE api_keys ADD COLUMN can_release INTEGER NOT NULL DEFAULT 0;
    `,
    down: `
      DROP TABLE agent_channels;
      DROP TABLE agent_releases;
      ALTER TABLE api_keys DROP COLUMN can_release;
    `,
  },
  {
    id: 17,
    // How people decided a run's pauses ({approve, edit, reject} as JSON), so history can mark a run that
    // was approved with an edit or rejected without reading its events.
    name: "run_decisions",
    sql: "ALTER TABLE runs ADD COLUMN decisions TEXT;",
    down: "ALTER TABLE runs DROP COLUMN decisions;",
  },
  {
    id: 18,
    // Shadow comparisons (issue 32): a report per row, its summary and its cases as JSON, newest by rowid;
    // a release may name the report it was checked with.
    name: "shadow_reports",
    sql: `
      CREATE TABLE shadow_reports (
        id TEXT PRIMARY KEY,
        agent_id TEXT NOT NULL,
        candidate_version INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        summary TEXT NOT NULL,
        cases TEXT NOT NULL
      );
      CREATE INDEX shadow_reports_by_agent ON shadow_reports (agent_id);
      ALTER TABLE agent_releases ADD COLUMN shadow_report_id TEXT;
    `,
    down: `
      ALTER TABLE agent_releases DROP COLUMN shadow_report_id;
      DROP TABLE shadow_reports;
    `,
  },
  {
    id: 19,
    // Public chats (issue 33): one per agent, found by its public id and its key's lookup id; which visitor
    // owns which session; a visitor's rating of a run (one per run, the latest).
    name: "public_chats",
    sql: `
      CREATE TABLE public_chats (
        agent_id TEXT PRIMARY KEY,
        public_id TEXT NOT NULL UNIQUE,
        key_id TEXT NOT NULL UNIQUE,
        publishable_key TEXT NOT NULL,
        visitor_secret TEXT NOT NULL,
        settings TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        updated_by TEXT NOT NULL
      );
      CREATE TABLE public_chat_sessions (
        session_id TEXT PRIMARY KEY,
        public_id TEXT NOT NULL,
        agent_id TEXT NOT NULL,
        visitor_id TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX public_chat_sessions_by_visitor ON public_chat_sessions (public_id, visitor_id);
      CREATE TABLE run_ratings (
        run_id TEXT PRIMARY KEY,
        agent_id TEXT NOT NULL,
        session_id TEXT,
        rating TEXT NOT NULL,
        comment TEXT,
        created_at TEXT NOT NULL
      );
      CREATE INDEX run_ratings_by_rating ON run_ratings (rating);
    `,
    down: `
      DROP TABLE run_ratings;
      DROP TABLE public_chat_sessions;
      DROP TABLE public_chats;
    `,
  },
  SQLITE_INBOX_MIGRATION,
  SQLITE_WEBHOOKS_MIGRATION,
  SQLITE_TRIGGERS_MIGRATION,
];
