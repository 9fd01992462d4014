import type Database from "better-sqlite3";
import type {
  AgentRecord,
  AgentSpec,
  AgentSummary,
  AgentVersionSummary,
  RunEvent,
  RunRecord,
} from "@waddle/protocol";
import type { SerializedPlannerState } from "@waddle/planner";
import { SqliteRunClaims } from "./sqlite-run-claims.js";
import { getSqliteRunListQuery } from "./sqlite-run-list.js";
import { assertSqliteFence, patchSqliteRun, toSqliteValue } from "./sqlite-run-writes.js";
import { openSqliteDatabase, type SqliteStoreOptions } from "./open-sqlite-database.js";
import type { WalCheckpointer } from "./wal-checkpointer.js";
import { SqliteCredentialStore } from "./credentials/sqlite-credential-store.js";
import { SqliteApiKeyStore } from "./api-keys/sqlite-api-key-store.js";
import { SqliteRequestKeyStore } from "./request-keys/sqlite-request-key-store.js";
import { SqliteAuditStore } from "./audit/sqlite-audit-store.js";
import { SqliteA2aTaskStore } from "./a2a-tasks/sqlite-a2a-task-store.js";
import { SqliteReleaseStore } from "./releases/sqlite-release-store.js";
import { SqlitePublicChatStores } from "./public/sqlite-public-stores.js";
import { SqliteShadowStore } from "./shadow/sqlite-shadow-store.js";
import { SqliteInboxStore } from "./inbox/sqlite-inbox-store.js";
import { SqliteWebhookStore } from "./webhooks/sqlite-webhook-store.js";
import { SqliteTriggerStore } from "./triggers/sqlite-trigger-store.js";
import { SqliteDraftStore } from "./drafts/sqlite-draft-store.js";
import { SqliteSessionStore } from "./sessions/sqlite-session-store.js";
import { SqliteTestStore } from "./tests/sqlite-test-store.js";
import { SqliteCallRecordStore } from "./call-records/sqlite-call-record-store.js";
import {
  AGENT_VERSION_ROWS,
  getCheckpointRow,
  getEventRow,
  getInsertParts,
  getNewRunRow,
  getPausedStateRow,
  getSavedAgentRecord,
  getTaskRow,
  getVersionRow,
  toAgentRecord,
  toAgentVersionSummary,
  toPausedState,
  toRunCheckpoint,
  toRunEvent,
  toRunRecord,
  toTaskRecord,
  type NewVersion,
  type RunRow,
  type SqlRow,
  type VersionRow,
} from "./sql-rows.js";
import {
  getAgentSummary,
  type AppendBatchOptions,
  type AppendEventOptions,
  type EventEntry,
  type RunCheckpoint,
  type ListRunsOptions,
  type NewRun,
  type RunPatch,
  type TaskRecord,
  type WaddleStore,
} from "./waddle-store.js";
import { writeTransaction } from "./sqlite-write-transaction.js";
import {
  agentExistsError,
  agentNotFoundError,
  runExistsError,
  runNotFoundError,
  seqGapError,
  staleAgentVersionError,
} from "./store-errors.js";

export type { SqliteStoreOptions } from "./open-sqlite-database.js";

/**
 * The default store: one SQLite file (better-sqlite3, WAL). Every write that touches several rows runs in
 * one transaction, so a crash never leaves half a version or a gap in a run's `seq`.
 */
export class SqliteStore implements WaddleStore {
  private readonly db: Database.Database;
  /** Prepared once per SQL text: preparing costs more than running on the per-event path. */
  private readonly statements = new Map<string, Database.Statement>();
  /** The worker that checkpoints the WAL, when `backgroundCheckpoints` is on. */
  readonly checkpointer: WalCheckpointer | undefined;
  readonly requestKeys: SqliteRequestKeyStore;
  readonly audit: SqliteAuditStore;
  readonly sessions: SqliteSessionStore;
  readonly tests: SqliteTestStore;
  readonly drafts: SqliteDraftStore;
  readonly credentials: SqliteCredentialStore;
  readonly apiKeys: SqliteApiKeyStore;
  readonly callRecords: SqliteCallRecordStore;
  readonly a2aTasks: SqliteA2aTaskStore;
  readonly releases: SqliteReleaseStore;
  readonly publicChat: SqlitePublicChatStores;
  readonly shadows: SqliteShadowStore;
  readonly inbox: SqliteInboxStore;
  readonly webhooks: SqliteWebhookStore;
  readonly triggers: SqliteTriggerStore;
  private readonly claims: SqliteRunClaims;

  /** Opens (creating when needed) the database at `filename`; `":memory:"` for a throwaway one. */
  constructor(filename: string, options: SqliteStoreOptions = {}) {
    ({ db: this.db, checkpointer: this.checkpointer } = openSqliteDatabase(filename, options));
    this.requestKeys = new SqliteRequestKeyStore(this.db);
    this.audit = new SqliteAuditStore(this.db);
    this.sessions = new SqliteSessionStore(this.db);
    this.tests = new SqliteTestStore(this.db);
    this.drafts = new SqliteDraftStore(this.db);
    this.credentials = new SqliteCredentialStore(this.db);
    this.apiKeys = new SqliteApiKeyStore(this.db);
    this.callRecords = new SqliteCallRecordStore(this.db);
    this.a2aTasks = new SqliteA2aTaskStore(this.db);
    this.releases = new SqliteReleaseStore(this.db);
    this.publicChat = new SqlitePublicChatStores(this.db);
    this.shadows = new SqliteShadowStore(this.db);
    this.inbox = new SqliteInboxStore(this.db);
    this.webhooks = new SqliteWebhookStore(this.db);
    this.triggers = new SqliteTriggerStore(this.db);
    this.claims = new SqliteRunClaims(
      this.db,
      (text) => this.sql(text),
      (id) => this.getRun(id),
    );
  }

  async listAgents(): Promise<AgentSummary[]> {
    const rows = this.sql(
      `${AGENT_VERSION_ROWS} WHERE v.version = a.latest_version ORDER BY a.id`,
    ).all() as VersionRow[];
    return rows.map((row) => getAgentSummary(toAgentRecord(row)));
  }

  async getAgent(id: string): Promise<AgentRecord | undefined> {
    const row = this.sql(`${AGENT_VERSION_ROWS} WHERE v.version = a.latest_version AND a.id = ?`).get(id) as
      VersionRow | undefined;
    return row ? toAgentRecord(row) : undefined;
  }

  async createAgent(options: { spec: AgentSpec; message?: string; invalid?: boolean }): Promise<AgentRecord> {
    const { spec } = options;
    const now = new Date().toISOString();
    const saved = writeTransaction(this.db, () => {
      const existing = this.sql("SELECT latest_version FROM agents WHERE id = ?").get(spec.id) as
        { latest_version: number } | undefined;
      if (existing) {
        throw agentExistsError(spec.id, existing.latest_version);
      }
      // Runs of a deleted agent with this id name the versions they ran: never reuse those numbers.
      const ran = this.sql("SELECT MAX(agent_version) AS version FROM runs WHERE agent_id = ?").get(
        spec.id,
      ) as {
        version: number | null;
      };
      const first = (ran.version ?? 0) + 1;
      this.sql("INSERT INTO agents (id, latest_version, created_at, updated_at) VALUES (?, ?, ?, ?)").run(
        spec.id,
        first,
        now,
        now,
      );
      return this.insertVersion({
        id: spec.id,
        version: first,
        spec,
        message: options.message,
        now,
        invalid: options.invalid,
      });
    })();
    return getSavedAgentRecord(saved, now);
  }

  async updateAgent(options: {
    id: string;
    spec: AgentSpec;
    baseVersion: number;
    message?: string;
    invalid?: boolean;
  }): Promise<AgentRecord> {
    const saved: NewVersion = {
      id: options.id,
      version: options.baseVersion + 1,
      spec: { ...options.spec, id: options.id },
      message: options.message,
      now: new Date().toISOString(),
      invalid: options.invalid,
    };
    const createdAt = writeTransaction(this.db, () => {
      const existing = this.sql("SELECT latest_version, created_at FROM agents WHERE id = ?").get(
        options.id,
      ) as { latest_version: number; created_at: string } | undefined;
      if (!existing) throw agentNotFoundError(options.id);
      if (existing.latest_version !== options.baseVersion) {
        throw staleAgentVersionError(options.id, existing.latest_version, options.baseVersion);
      }
      this.insertVersion(saved);
      this.sql("UPDATE agents SET latest_version = ?, updated_at = ? WHERE id = ?").run(
        saved.version,
        saved.now,
        options.id,
      );
      return existing.created_at;
    })();
    return getSavedAgentRecord(saved, createdAt);
  }

  async deleteAgent(id: string): Promise<boolean> {
    return this.sql("DELETE FROM agents WHERE id = ?").run(id).changes > 0;
  }

  async listAgentVersions(id: string): Promise<AgentVersionSummary[] | undefined> {
    const exists = this.sql("SELECT 1 FROM agents WHERE id = ?").get(id);
    if (!exists) return undefined;
    const rows = this.sql(
      "SELECT version, name, message, created_at, invalid FROM agent_versions WHERE agent_id = ? ORDER BY version",
    ).all(id) as VersionRow[];
    return rows.map(toAgentVersionSummary);
  }

  async getAgentVersion(id: string, version: number): Promise<AgentRecord | undefined> {
    const row = this.sql(`${AGENT_VERSION_ROWS} WHERE v.agent_id = ? AND v.version = ?`).get(id, version) as
      VersionRow | undefined;
    return row ? toAgentRecord(row) : undefined;
  }

  async createRun(run: NewRun): Promise<RunRecord> {
    const { columns, values, params } = getInsertParts(
      getNewRunRow(run, new Date().toISOString()),
      () => "?",
    );
    try {
      this.sql(
        `INSERT INTO runs (${columns}, lease_until, position)
           VALUES (${values}, ?, (SELECT COALESCE(MAX(position), 0) + 1 FROM runs))`,
      ).run(...params.map(toSqliteValue), run.leaseMs === undefined ? null : Date.now() + run.leaseMs);
    } catch (error) {
      if ((error as { code?: string }).code === "SQLITE_CONSTRAINT_PRIMARYKEY") {
        throw runExistsError(run.id);
      }
      throw error;
    }
    return (await this.getRun(run.id))!;
  }

  async getRun(id: string): Promise<RunRecord | undefined> {
    const row = this.sql("SELECT * FROM runs WHERE id = ?").get(id) as RunRow | undefined;
    return row ? toRunRecord(row) : undefined;
  }

  async listRuns(options: ListRunsOptions = {}): Promise<RunRecord[]> {
    const { sql, params } = getSqliteRunListQuery(options);
    return (this.sql(sql).all(...params) as RunRow[]).map(toRunRecord);
  }

  async updateRun(id: string, patch: RunPatch, options: { fence?: number } = {}): Promise<RunRecord> {
    writeTransaction(this.db, () => {
      if (options.fence !== undefined) assertSqliteFence(this.sql, id, options.fence);
      patchSqliteRun(this.sql, id, patch);
    })();
    return (await this.getRun(id))!;
  }

  async appendEvent(event: RunEvent, options: AppendEventOptions = {}): Promise<void> {
    this.appendInTransaction([{ event, options }], {});
  }

  async appendEvents(entries: readonly EventEntry[], batch: AppendBatchOptions = {}): Promise<void> {
    if (entries.length > 0 || batch.fence || batch.checkpoint) this.appendInTransaction(entries, batch);
  }

  /**
   * One transaction for a batch: each event advances `last_seq` only from `seq - 1` (so a gap or a replay is
   * refused and the whole batch rolled back), then is written with its run patch and task.
   */
  private readonly appendInTransaction = this.lazyTransaction(
    (entries: readonly EventEntry[], batch: AppendBatchOptions) => {
      if (batch.fence) assertSqliteFence(this.sql, batch.fence.runId, batch.fence.epoch);
      for (const { event, options = {} } of entries) this.appendOne(event, options);
      const { checkpoint } = batch;
      if (checkpoint) this.insert("run_checkpoints", getCheckpointRow(checkpoint), { replace: true });
    },
  );

  private appendOne(event: RunEvent, options: AppendEventOptions): void {
    const advanced = this.sql("UPDATE runs SET last_seq = ? WHERE id = ? AND last_seq = ?").run(
      event.seq,
      event.runId,
      event.seq - 1,
    ).changes;
    if (advanced === 0) {
      const run = this.sql("SELECT last_seq FROM runs WHERE id = ?").get(event.runId) as
        { last_seq: number } | undefined;
      if (!run) throw runNotFoundError(event.runId);
      throw seqGapError(event.runId, event.seq, run.last_seq);
    }
    this.insert("run_events", getEventRow(event));
    if (options.run) patchSqliteRun(this.sql, event.runId, options.run);
    if (options.task) this.insert("tasks", getTaskRow(options.task), { replace: true });
  }

  async listEvents(runId: string, options: { afterSeq?: number; limit?: number } = {}): Promise<RunEvent[]> {
    const limit = options.limit ?? -1;
    const rows = this.sql(
      "SELECT event FROM run_events WHERE run_id = ? AND seq > ? ORDER BY seq LIMIT ?",
    ).all(runId, options.afterSeq ?? 0, limit) as { event: string }[];
    return rows.map(toRunEvent);
  }

  async savePausedState(options: {
    token: string;
    runId?: string;
    state: SerializedPlannerState;
    fence?: number;
  }): Promise<void> {
    writeTransaction(this.db, () => {
      if (options.fence !== undefined && options.runId !== undefined)
        assertSqliteFence(this.sql, options.runId, options.fence);
      const row = getPausedStateRow({ ...options, now: new Date().toISOString() });
      this.insert("paused_states", row, { replace: true });
    })();
  }

  async loadPausedState(token: string): Promise<SerializedPlannerState | undefined> {
    const row = this.sql("SELECT state FROM paused_states WHERE token = ?").get(token) as
      { state: string } | undefined;
    return row ? toPausedState(row) : undefined;
  }

  async deletePausedState(token: string): Promise<void> {
    this.sql("DELETE FROM paused_states WHERE token = ?").run(token);
  }

  async listTasks(runId: string): Promise<TaskRecord[]> {
    const rows = this.sql("SELECT record FROM tasks WHERE run_id = ? ORDER BY rowid").all(runId) as {
      record: string;
    }[];
    return rows.map(toTaskRecord);
  }

  async loadCheckpoint(runId: string): Promise<RunCheckpoint | undefined> {
    const row = this.sql("SELECT seq, state FROM run_checkpoints WHERE run_id = ?").get(runId) as
      { seq: number; state: string } | undefined;
    return row ? toRunCheckpoint(runId, row) : undefined;
  }

  readonly claimRun: WaddleStore["claimRun"] = (options) => this.claims.claimRun(options);
  readonly renewClaim: WaddleStore["renewClaim"] = (claim, leaseMs) => this.claims.renewClaim(claim, leaseMs);
  readonly releaseClaim: WaddleStore["releaseClaim"] = (claim) => this.claims.releaseClaim(claim);
  readonly listUnclaimedRuns: WaddleStore["listUnclaimedRuns"] = (limit) =>
    this.claims.listUnclaimedRuns(limit);
  readonly queueResume: WaddleStore["queueResume"] = (options) => this.claims.queueResume(options);
  readonly requestCancel: WaddleStore["requestCancel"] = (runId) => this.claims.requestCancel(runId);

  /** A transaction function made once, on first use (the database opens in the constructor). */
  private lazyTransaction<A extends unknown[]>(body: (...args: A) => void): (...args: A) => void {
    let transaction: ((...args: A) => void) | undefined;
    return (...args: A) => {
      transaction ??= writeTransaction(this.db, body);
      transaction(...args);
    };
  }

  private readonly sql = (text: string): Database.Statement => {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  };

  /** Stops the checkpoint worker, then checkpoints what is left and empties the WAL before closing. */
  async close(): Promise<void> {
    await this.checkpointer?.stop();
    if (!this.db.open) return;
    if (this.checkpointer) this.db.pragma("wal_checkpoint(TRUNCATE)");
    this.db.close();
  }

  /** Writes `version`'s row and returns it, for the record the save answers with. */
  private insertVersion(version: NewVersion): NewVersion {
    this.insert("agent_versions", getVersionRow(version));
    return version;
  }

  /** Inserts `row` into `table`; with `replace`, in place of a row with the same key. */
  private insert(table: string, row: SqlRow, options: { replace?: boolean } = {}): void {
    const { columns, values, params } = getInsertParts(row, () => "?");
    const insert = options.replace ? "INSERT OR REPLACE" : "INSERT";
    this.sql(`${insert} INTO ${table} (${columns}) VALUES (${values})`).run(...params.map(toSqliteValue));
  }
}
