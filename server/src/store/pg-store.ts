import type {
  AgentRecord,
  AgentSpec,
  AgentSummary,
  AgentVersionSummary,
  RunEvent,
  RunRecord,
} from "@waddle/protocol";
import type { SerializedPlannerState } from "@waddle/planner";
import type pg from "pg";
import { isUniqueViolation } from "./pg-errors.js";
import { PgConnection, type OperationKind, type PgStoreOptions, type Query } from "./pg-connection.js";
import { PgRunClaims } from "./pg-run-claims.js";
import { getPgRunListQuery } from "./pg-run-list.js";
import { appendRunEvents, assertFence, isStoreError, patchRun } from "./pg-run-writes.js";
import { applyPgMigrations } from "./apply-pg-migrations.js";
import { insertPgRow, pgParameter } from "./insert-pg-row.js";
import { PgReleaseStore } from "./releases/pg-release-store.js";
import { PgPublicChatStores } from "./public/pg-public-stores.js";
import { PgShadowStore } from "./shadow/pg-shadow-store.js";
import { PgInboxStore } from "./inbox/pg-inbox-store.js";
import { PgWebhookStore } from "./webhooks/pg-webhook-store.js";
import { PgTriggerStore } from "./triggers/pg-trigger-store.js";
import { PgDraftStore } from "./drafts/pg-draft-store.js";
import { PgCredentialStore } from "./credentials/pg-credential-store.js";
import { PgApiKeyStore } from "./api-keys/pg-api-key-store.js";
import { PgRequestKeyStore } from "./request-keys/pg-request-key-store.js";
import { PgAuditStore } from "./audit/pg-audit-store.js";
import { PgA2aTaskStore } from "./a2a-tasks/pg-a2a-task-store.js";
import { PgSessionStore } from "./sessions/pg-session-store.js";
import { PgTestStore } from "./tests/pg-test-store.js";
import { PgCallRecordStore } from "./call-records/pg-call-record-store.js";
import {
  AGENT_VERSION_ROWS,
  getCheckpointRow,
  getInsertParts,
  getNewRunRow,
  getPausedStateRow,
  getSavedAgentRecord,
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
  type VersionRow,
} from "./sql-rows.js";
import {
  agentExistsError,
  agentNotFoundError,
  runExistsError,
  staleAgentVersionError,
} from "./store-errors.js";

export type { PgStoreOptions } from "./pg-connection.js";
import {
  getAgentSummary,
  type AppendBatchOptions,
  type AppendEventOptions,
  type EventEntry,
  type ListRunsOptions,
  type NewRun,
  type RunCheckpoint,
  type RunPatch,
  type TaskRecord,
  type WaddleStore,
} from "./waddle-store.js";

/**
 * The store on PostgreSQL (`pg`, pooled), for several Waddle instances on one database. Same tables and
 * guarantees as `SqliteStore`: every multi-row write is one transaction, `seq` advances only from
 * `seq - 1`, and writes under a claim check its epoch in the same transaction (fencing). Leases are
 * measured on PostgreSQL's clock. A broken connection is retried until `retryForMs`.
 */
export class PgStore implements WaddleStore {
  private readonly connection: PgConnection;
  private readonly claims: PgRunClaims;
  readonly requestKeys = new PgRequestKeyStore((text, params, kind) => this.query(text, params, kind));
  readonly audit = new PgAuditStore((text, params, kind) => this.query(text, params, kind));
  readonly drafts = new PgDraftStore((text, params, kind) => this.query(text, params, kind));
  readonly callRecords = new PgCallRecordStore((text, params, kind) => this.query(text, params, kind));
  readonly releases = new PgReleaseStore((text, params, kind) => this.query(text, params, kind));
  readonly shadows = new PgShadowStore((text, params, kind) => this.query(text, params, kind));
  readonly inbox = new PgInboxStore((text, params, kind) => this.query(text, params, kind));
  readonly triggers = new PgTriggerStore((text, params, kind) => this.query(text, params, kind));
  readonly webhooks = new PgWebhookStore(
    (text, params, kind) => this.query(text, params, kind),
    (body) => this.transaction("write", (query) => body(query)),
  );
  readonly a2aTasks = new PgA2aTaskStore((text, params, kind) => this.query(text, params, kind));
  readonly publicChat = new PgPublicChatStores((text, params, kind) => this.query(text, params, kind));
  readonly sessions = new PgSessionStore(
    (text, params, kind) => this.query(text, params, kind),
    (body) => this.transaction("write", (query) => body(query)),
  );
  readonly credentials = new PgCredentialStore(
    (text, params, kind) => this.query(text, params, kind),
    (body) => this.transaction("write", (query) => body(query)),
  );

  readonly apiKeys = new PgApiKeyStore((text, params, kind) => this.query(text, params, kind));
  readonly tests = new PgTestStore((text, params, kind) => this.query(text, params, kind));

  private constructor(options: PgStoreOptions) {
    this.connection = new PgConnection(options);
    this.claims = new PgRunClaims((text, params, kind) => this.query(text, params, kind));
  }

  /** Connects, waits up to `retryForMs` for the database, and applies the migrations. */
  static async open(options: PgStoreOptions): Promise<PgStore> {
    const store = new PgStore(options);
    const { connection } = store;
    try {
      await connection.retry("write", () => applyPgMigrations(connection.pool));
    } catch (error) {
      await connection.pool.end();
      throw error;
    }
    return store;
  }

  /** Resolves when PostgreSQL answers `SELECT 1` within `timeoutMs`; for `/api/health`. */
  ping(timeoutMs = 2_000): Promise<void> {
    return this.connection.ping(timeoutMs);
  }

  async listAgents(): Promise<AgentSummary[]> {
    const { rows } = await this.query(
      `${AGENT_VERSION_ROWS} WHERE v.version = a.latest_version ORDER BY a.id`,
    );
    return (rows as VersionRow[]).map((row) => getAgentSummary(toAgentRecord(row)));
  }

  async getAgent(id: string): Promise<AgentRecord | undefined> {
    const { rows } = await this.query(
      `${AGENT_VERSION_ROWS} WHERE v.version = a.latest_version AND a.id = $1`,
      [id],
    );
    return rows[0] ? toAgentRecord(rows[0] as VersionRow) : undefined;
  }

  async createAgent(options: { spec: AgentSpec; message?: string; invalid?: boolean }): Promise<AgentRecord> {
    const { spec } = options;
    const now = new Date().toISOString();
    const saved = await this.transaction("read", async (query) => {
      const existing = await query("SELECT latest_version FROM agents WHERE id = $1", [spec.id]);
      if (existing.rows[0]) throw agentExistsError(spec.id, existing.rows[0].latest_version as number);
      // Runs of a deleted agent with this id name the versions they ran: never reuse those numbers.
      const ran = await query("SELECT MAX(agent_version) AS version FROM runs WHERE agent_id = $1", [
        spec.id,
      ]);
      const first = ((ran.rows[0]?.version as number | null) ?? 0) + 1;
      try {
        await query(
          "INSERT INTO agents (id, latest_version, created_at, updated_at) VALUES ($1, $2, $3, $3)",
          [spec.id, first, now],
        );
      } catch (error) {
        if (isUniqueViolation(error)) throw agentExistsError(spec.id, first);
        throw error;
      }
      return insertVersion(query, {
        id: spec.id,
        version: first,
        spec,
        message: options.message,
        now,
        invalid: options.invalid,
      });
    });
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
    const createdAt = await this.transaction("read", async (query) => {
      const { rows } = await query("SELECT latest_version, created_at FROM agents WHERE id = $1 FOR UPDATE", [
        options.id,
      ]);
      const existing = rows[0] as { latest_version: number; created_at: string } | undefined;
      if (!existing) throw agentNotFoundError(options.id);
      if (existing.latest_version !== options.baseVersion) {
        throw staleAgentVersionError(options.id, existing.latest_version, options.baseVersion);
      }
      await insertVersion(query, saved);
      await query("UPDATE agents SET latest_version = $1, updated_at = $2 WHERE id = $3", [
        saved.version,
        saved.now,
        options.id,
      ]);
      return existing.created_at;
    });
    return getSavedAgentRecord(saved, createdAt);
  }

  async deleteAgent(id: string): Promise<boolean> {
    return ((await this.query("DELETE FROM agents WHERE id = $1", [id])).rowCount ?? 0) > 0;
  }

  async listAgentVersions(id: string): Promise<AgentVersionSummary[] | undefined> {
    const exists = await this.query("SELECT 1 FROM agents WHERE id = $1", [id]);
    if (exists.rows.length === 0) return undefined;
    const { rows } = await this.query(
      "SELECT version, name, message, created_at, invalid FROM agent_versions WHERE agent_id = $1 ORDER BY version",
      [id],
    );
    return (rows as VersionRow[]).map(toAgentVersionSummary);
  }

  async getAgentVersion(id: string, version: number): Promise<AgentRecord | undefined> {
    const { rows } = await this.query(`${AGENT_VERSION_ROWS} WHERE v.agent_id = $1 AND v.version = $2`, [
      id,
      version,
    ]);
    return rows[0] ? toAgentRecord(rows[0] as VersionRow) : undefined;
  }

  async createRun(run: NewRun): Promise<RunRecord> {
    const { columns, values, params } = getInsertParts(
      getNewRunRow(run, new Date().toISOString()),
      pgParameter,
    );
    try {
      const { rows } = await this.query(
        `INSERT INTO runs (${columns}, lease_until)
           VALUES (${values}, clock_timestamp() + $${params.length + 1}::integer * interval '1 millisecond')
           RETURNING *`,
        [...params, run.leaseMs ?? null],
      );
      return toRunRecord(rows[0] as RunRow);
    } catch (error) {
      if (isUniqueViolation(error)) throw runExistsError(run.id);
      throw error;
    }
  }

  async getRun(id: string): Promise<RunRecord | undefined> {
    const { rows } = await this.query("SELECT * FROM runs WHERE id = $1", [id]);
    return rows[0] ? toRunRecord(rows[0] as RunRow) : undefined;
  }

  async listRuns(options: ListRunsOptions = {}): Promise<RunRecord[]> {
    const { sql, params } = getPgRunListQuery(options);
    const { rows } = await this.query(sql, params);
    return (rows as RunRow[]).map(toRunRecord);
  }

  async updateRun(id: string, patch: RunPatch, options: { fence?: number } = {}): Promise<RunRecord> {
    return this.transaction("write", async (query) => {
      if (options.fence !== undefined) await assertFence(query, id, options.fence);
      await patchRun(query, id, patch);
      const { rows } = await query("SELECT * FROM runs WHERE id = $1", [id]);
      return toRunRecord(rows[0] as RunRow);
    });
  }

  async appendEvent(event: RunEvent, options: AppendEventOptions = {}): Promise<void> {
    await this.appendEvents([{ event, options }]);
  }

  /**
   * One transaction per batch, a few statements per run in it: the fence, `last_seq` advanced from the
   * batch's first seq - 1 to its last (a gap or a replay writes nothing), the events in one insert, the
   * run patches merged in order, tasks, the checkpoint.
   */
  async appendEvents(entries: readonly EventEntry[], batch: AppendBatchOptions = {}): Promise<void> {
    if (entries.length === 0 && !batch.fence && !batch.checkpoint) return;
    const byRun = new Map<string, EventEntry[]>();
    for (const entry of entries) {
      const list = byRun.get(entry.event.runId) ?? [];
      list.push(entry);
      byRun.set(entry.event.runId, list);
    }
    await this.transaction("write", async (query, attempt) => {
      if (batch.fence) await assertFence(query, batch.fence.runId, batch.fence.epoch);
      for (const [runId, list] of byRun) {
        try {
          await appendRunEvents(query, runId, list);
        } catch (error) {
          // A retry after a commit whose answer was lost: the events are there already.
          if (
            attempt > 0 &&
            isStoreError(error, "seq_gap") &&
            error.details?.lastSeq === list.at(-1)!.event.seq
          )
            return;
          throw error;
        }
      }
      const { checkpoint } = batch;
      if (checkpoint) {
        await insertPgRow(query, "run_checkpoints", getCheckpointRow(checkpoint), { replaceOn: ["run_id"] });
      }
    });
  }

  async listEvents(runId: string, options: { afterSeq?: number; limit?: number } = {}): Promise<RunEvent[]> {
    const { rows } = await this.query(
      "SELECT event FROM run_events WHERE run_id = $1 AND seq > $2 ORDER BY seq LIMIT $3",
      [runId, options.afterSeq ?? 0, options.limit ?? null],
    );
    return (rows as { event: string }[]).map(toRunEvent);
  }

  async savePausedState(options: {
    token: string;
    runId?: string;
    state: SerializedPlannerState;
    fence?: number;
  }): Promise<void> {
    await this.transaction("write", async (query) => {
      if (options.fence !== undefined && options.runId !== undefined)
        await assertFence(query, options.runId, options.fence);
      const row = getPausedStateRow({ ...options, now: new Date().toISOString() });
      await insertPgRow(query, "paused_states", row, { replaceOn: ["token"] });
    });
  }

  async loadPausedState(token: string): Promise<SerializedPlannerState | undefined> {
    const { rows } = await this.query("SELECT state FROM paused_states WHERE token = $1", [token]);
    return rows[0] ? toPausedState(rows[0] as { state: string }) : undefined;
  }

  async deletePausedState(token: string): Promise<void> {
    await this.query("DELETE FROM paused_states WHERE token = $1", [token], "write");
  }

  async listTasks(runId: string): Promise<TaskRecord[]> {
    const { rows } = await this.query("SELECT record FROM tasks WHERE run_id = $1 ORDER BY position", [
      runId,
    ]);
    return (rows as { record: string }[]).map(toTaskRecord);
  }

  async loadCheckpoint(runId: string): Promise<RunCheckpoint | undefined> {
    const { rows } = await this.query("SELECT seq, state FROM run_checkpoints WHERE run_id = $1", [runId]);
    const row = rows[0] as { seq: number; state: string } | undefined;
    return row ? toRunCheckpoint(runId, row) : undefined;
  }

  readonly claimRun: WaddleStore["claimRun"] = (options) => this.claims.claimRun(options);
  readonly renewClaim: WaddleStore["renewClaim"] = (claim, leaseMs) => this.claims.renewClaim(claim, leaseMs);
  readonly releaseClaim: WaddleStore["releaseClaim"] = (claim) => this.claims.releaseClaim(claim);
  readonly listUnclaimedRuns: WaddleStore["listUnclaimedRuns"] = (limit) =>
    this.claims.listUnclaimedRuns(limit);
  readonly queueResume: WaddleStore["queueResume"] = (options) => this.claims.queueResume(options);
  readonly requestCancel: WaddleStore["requestCancel"] = (runId) => this.claims.requestCancel(runId);

  close(): Promise<void> {
    return this.connection.close();
  }

  private query(text: string, params?: unknown[], kind: OperationKind = "read"): Promise<pg.QueryResult> {
    return this.connection.query(text, params, kind);
  }

  private transaction<T>(
    kind: OperationKind,
    body: (query: Query, attempt: number) => Promise<T>,
  ): Promise<T> {
    return this.connection.transaction(kind, body);
  }
}

/** Writes `version`'s row and returns it, for the record the save answers with. */
async function insertVersion(query: Query, version: NewVersion): Promise<NewVersion> {
  await insertPgRow(query, "agent_versions", getVersionRow(version));
  return version;
}
