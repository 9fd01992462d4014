import type {
  AgentRecord,
  AgentSpec,
  AgentSummary,
  AgentVersionSummary,
  RunEvent,
  RunRecord,
  RunStatus,
} from "@waddle/protocol";
import type { SerializedPlannerState } from "@waddle/planner";
import pg from "pg";
import { fencedError } from "./fenced-error.js";
import { isPgConnectionError, isUniqueViolation } from "./pg-errors.js";
import { applyPgMigrations } from "./pg-migrations.js";
import { getPgRunSets } from "./pg-run-patch.js";
import { PgRequestKeyStore } from "./request-keys/pg-request-key-store.js";
import { PgSessionStore } from "./sessions/pg-session-store.js";
import { toAgentRecord, toRunRecord, type RunRow, type VersionRow } from "./sqlite-rows.js";
import {
  EMPTY_USAGE,
  getAgentSummary,
  StoreError,
  type AppendBatchOptions,
  type AppendEventOptions,
  type EventEntry,
  type ListRunsOptions,
  type NewRun,
  type RunCheckpoint,
  type RunClaim,
  type RunPatch,
  type RunWork,
  type TaskRecord,
  type WaddleStore,
} from "./waddle-store.js";

export interface PgStoreOptions {
  /** `postgres://user:password@host:port/database` (`WADDLE_DATABASE_URL`). */
  connectionString: string;
  /** Pooled connections (default 10). */
  maxConnections?: number;
  /**
   * How long a run's write (events, checkpoints, run changes, paused states) waits for PostgreSQL to come
   * back when the connection breaks (a restart) before it fails (default 5 min): runs go on once the
   * database is back, and lose nothing.
   */
  retryForMs?: number;
  /** The same for every other operation, which a request waits for (default 5 s). */
  readRetryForMs?: number;
  /**
   * A session that holds a transaction open but idle this long is ended by PostgreSQL, releasing its row
   * locks (default 5 s): a worker frozen mid-transaction (SIGSTOP, a stalled VM) must not hold the run's
   * row, or no other worker could claim it. Its own commit then fails, and the retry is fenced.
   */
  idleInTransactionMs?: number;
  /** Told when PostgreSQL is unreachable and when it is back. */
  onAvailability?: (available: boolean, error?: Error) => void;
}

type Query = (text: string, params?: unknown[]) => Promise<pg.QueryResult>;
/** A run's writes wait long for a restarted database; what a request waits for does not. */
type OperationKind = "read" | "write";
type PgRunRow = Omit<RunRow, "offline"> & { offline: boolean };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The store on PostgreSQL (`pg`, pooled), for several Waddle instances on one database. Same tables and
 * guarantees as `SqliteStore`: every multi-row write is one transaction, `seq` advances only from
 * `seq - 1`, and writes under a claim check its epoch in the same transaction (fencing). Leases are
 * measured on PostgreSQL's clock. A broken connection is retried until `retryForMs`.
 */
export class PgStore implements WaddleStore {
  private readonly pool: pg.Pool;
  readonly requestKeys = new PgRequestKeyStore((text, params, kind) => this.query(text, params, kind));
  readonly sessions = new PgSessionStore(
    (text, params, kind) => this.query(text, params, kind),
    (body) => this.transaction("write", (query) => body(query)),
  );
  private closed = false;
  private available = true;

  private constructor(private readonly options: PgStoreOptions) {
    this.pool = new pg.Pool({
      connectionString: options.connectionString,
      max: options.maxConnections ?? 10,
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 30_000,
      idle_in_transaction_session_timeout: options.idleInTransactionMs ?? 5_000,
    });
    // An idle client whose server went away: the pool drops it; the next query connects again.
    this.pool.on("error", () => undefined);
  }

  /** Connects, waits up to `retryForMs` for the database, and applies the migrations. */
  static async open(options: PgStoreOptions): Promise<PgStore> {
    const store = new PgStore(options);
    try {
      await store.retry("write", () => applyPgMigrations(store.pool));
    } catch (error) {
      await store.pool.end();
      throw error;
    }
    return store;
  }

  /** Resolves when PostgreSQL answers `SELECT 1` within `timeoutMs`; for `/api/health`. */
  async ping(timeoutMs = 2_000): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query({ text: "SELECT 1", query_timeout: timeoutMs } as pg.QueryConfig);
    } finally {
      client.release();
    }
  }

  async listAgents(): Promise<AgentSummary[]> {
    const { rows } = await this.query(
      `SELECT v.*, a.created_at AS first_created_at FROM agents a
         JOIN agent_versions v ON v.agent_id = a.id AND v.version = a.latest_version ORDER BY a.id`,
    );
    return (rows as VersionRow[]).map((row) => getAgentSummary(toAgentRecord(row)));
  }

  async getAgent(id: string): Promise<AgentRecord | undefined> {
    const { rows } = await this.query(
      `SELECT v.*, a.created_at AS first_created_at FROM agents a
         JOIN agent_versions v ON v.agent_id = a.id AND v.version = a.latest_version WHERE a.id = $1`,
      [id],
    );
    return rows[0] ? toAgentRecord(rows[0] as VersionRow) : undefined;
  }

  async createAgent(options: { spec: AgentSpec; message?: string }): Promise<AgentRecord> {
    const { spec } = options;
    const now = new Date().toISOString();
    const conflict = (version: number) =>
      new StoreError("conflict", `An agent with id "${spec.id}" already exists.`, {
        currentVersion: version,
      });
    const version = await this.transaction("read", async (query) => {
      const existing = await query("SELECT latest_version FROM agents WHERE id = $1", [spec.id]);
      if (existing.rows[0]) throw conflict(existing.rows[0].latest_version as number);
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
        if (isUniqueViolation(error)) throw conflict(first);
        throw error;
      }
      await this.insertVersion(query, { id: spec.id, version: first, spec, message: options.message, now });
      return first;
    });
    return { id: spec.id, version, spec, updatedAt: now, createdAt: now };
  }

  async updateAgent(options: {
    id: string;
    spec: AgentSpec;
    baseVersion: number;
    message?: string;
  }): Promise<AgentRecord> {
    const now = new Date().toISOString();
    const spec = { ...options.spec, id: options.id };
    const createdAt = await this.transaction("read", async (query) => {
      const { rows } = await query("SELECT latest_version, created_at FROM agents WHERE id = $1 FOR UPDATE", [
        options.id,
      ]);
      const existing = rows[0] as { latest_version: number; created_at: string } | undefined;
      if (!existing) throw new StoreError("not_found", `Agent "${options.id}" does not exist.`);
      if (existing.latest_version !== options.baseVersion) {
        throw new StoreError(
          "conflict",
          `Agent "${options.id}" is at version ${existing.latest_version}, not ${options.baseVersion}.`,
          { currentVersion: existing.latest_version, baseVersion: options.baseVersion },
        );
      }
      const version = existing.latest_version + 1;
      await this.insertVersion(query, { id: options.id, version, spec, message: options.message, now });
      await query("UPDATE agents SET latest_version = $1, updated_at = $2 WHERE id = $3", [
        version,
        now,
        options.id,
      ]);
      return existing.created_at;
    });
    return { id: options.id, version: options.baseVersion + 1, spec, updatedAt: now, createdAt };
  }

  async deleteAgent(id: string): Promise<boolean> {
    return ((await this.query("DELETE FROM agents WHERE id = $1", [id])).rowCount ?? 0) > 0;
  }

  async listAgentVersions(id: string): Promise<AgentVersionSummary[] | undefined> {
    const exists = await this.query("SELECT 1 FROM agents WHERE id = $1", [id]);
    if (exists.rows.length === 0) return undefined;
    const { rows } = await this.query(
      "SELECT version, name, message, created_at FROM agent_versions WHERE agent_id = $1 ORDER BY version",
      [id],
    );
    return (rows as VersionRow[]).map((row) => ({
      version: row.version,
      createdAt: row.created_at,
      name: row.name,
      ...(row.message ? { message: row.message } : {}),
    }));
  }

  async getAgentVersion(id: string, version: number): Promise<AgentRecord | undefined> {
    const { rows } = await this.query(
      `SELECT v.*, a.created_at AS first_created_at FROM agent_versions v JOIN agents a ON a.id = v.agent_id
         WHERE v.agent_id = $1 AND v.version = $2`,
      [id, version],
    );
    return rows[0] ? toAgentRecord(rows[0] as VersionRow) : undefined;
  }

  async createRun(run: NewRun): Promise<RunRecord> {
    try {
      const { rows } = await this.query(
        `INSERT INTO runs (id, agent_id, agent_version, status, query, usage, offline, created_at,
           tool_context_keys, work, lease_until)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10,
             clock_timestamp() + $11::integer * interval '1 millisecond')
           RETURNING *`,
        [
          run.id,
          run.agentId,
          run.agentVersion,
          run.status,
          run.query,
          JSON.stringify(EMPTY_USAGE),
          run.offline ?? false,
          new Date().toISOString(),
          run.toolContextKeys === undefined ? null : JSON.stringify(run.toolContextKeys),
          run.work === undefined ? null : JSON.stringify(run.work),
          run.leaseMs ?? null,
        ],
      );
      return toPgRunRecord(rows[0] as PgRunRow);
    } catch (error) {
      if (isUniqueViolation(error)) throw new StoreError("conflict", `Run "${run.id}" already exists.`);
      throw error;
    }
  }

  async getRun(id: string): Promise<RunRecord | undefined> {
    const { rows } = await this.query("SELECT * FROM runs WHERE id = $1", [id]);
    return rows[0] ? toPgRunRecord(rows[0] as PgRunRow) : undefined;
  }

  async listRuns(options: ListRunsOptions = {}): Promise<RunRecord[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (options.agentId !== undefined) {
      params.push(options.agentId);
      where.push(`agent_id = $${params.length}`);
    }
    if (options.statuses !== undefined) {
      params.push([...options.statuses]);
      where.push(`status = ANY($${params.length})`);
    }
    params.push(options.limit ?? null);
    const { rows } = await this.query(
      `SELECT * FROM runs ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
         ORDER BY position DESC LIMIT $${params.length}`,
      params,
    );
    return (rows as PgRunRow[]).map(toPgRunRecord);
  }

  async updateRun(id: string, patch: RunPatch, options: { fence?: number } = {}): Promise<RunRecord> {
    return this.transaction("write", async (query) => {
      if (options.fence !== undefined) await assertFence(query, id, options.fence);
      await patchRun(query, id, patch);
      const { rows } = await query("SELECT * FROM runs WHERE id = $1", [id]);
      return toPgRunRecord(rows[0] as PgRunRow);
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
        await query(
          `INSERT INTO run_checkpoints (run_id, seq, state) VALUES ($1, $2, $3)
             ON CONFLICT (run_id) DO UPDATE SET seq = EXCLUDED.seq, state = EXCLUDED.state`,
          [checkpoint.runId, checkpoint.seq, JSON.stringify(checkpoint.state)],
        );
      }
    });
  }

  async listEvents(runId: string, options: { afterSeq?: number; limit?: number } = {}): Promise<RunEvent[]> {
    const { rows } = await this.query(
      "SELECT event FROM run_events WHERE run_id = $1 AND seq > $2 ORDER BY seq LIMIT $3",
      [runId, options.afterSeq ?? 0, options.limit ?? null],
    );
    return rows.map((row) => JSON.parse(row.event as string) as RunEvent);
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
      await query(
        `INSERT INTO paused_states (token, run_id, state, created_at) VALUES ($1, $2, $3, $4)
           ON CONFLICT (token) DO UPDATE SET run_id = EXCLUDED.run_id, state = EXCLUDED.state,
             created_at = EXCLUDED.created_at`,
        [options.token, options.runId ?? null, JSON.stringify(options.state), new Date().toISOString()],
      );
    });
  }

  async loadPausedState(token: string): Promise<SerializedPlannerState | undefined> {
    const { rows } = await this.query("SELECT state FROM paused_states WHERE token = $1", [token]);
    return rows[0] ? (JSON.parse(rows[0].state as string) as SerializedPlannerState) : undefined;
  }

  async deletePausedState(token: string): Promise<void> {
    await this.query("DELETE FROM paused_states WHERE token = $1", [token], "write");
  }

  async listTasks(runId: string): Promise<TaskRecord[]> {
    const { rows } = await this.query("SELECT record FROM tasks WHERE run_id = $1 ORDER BY position", [
      runId,
    ]);
    return rows.map((row) => JSON.parse(row.record as string) as TaskRecord);
  }

  async loadCheckpoint(runId: string): Promise<RunCheckpoint | undefined> {
    const { rows } = await this.query("SELECT seq, state FROM run_checkpoints WHERE run_id = $1", [runId]);
    const row = rows[0] as { seq: number; state: string } | undefined;
    return row ? { runId, seq: row.seq, state: JSON.parse(row.state) as Record<string, unknown> } : undefined;
  }

  async claimRun(options: {
    runId: string;
    owner: string;
    leaseMs: number;
    statuses: readonly RunStatus[];
  }): Promise<RunClaim | undefined> {
    const { rows } = await this.query(
      `UPDATE runs SET epoch = epoch + 1, owner = $2,
           lease_until = clock_timestamp() + $3 * interval '1 millisecond'
         WHERE id = $1 AND status = ANY($4)
           AND (owner IS NULL OR lease_until IS NULL OR lease_until <= clock_timestamp())
         RETURNING epoch, status, cancel_requested, work`,
      [options.runId, options.owner, options.leaseMs, [...options.statuses]],
    );
    const row = rows[0] as
      { epoch: number; status: RunStatus; cancel_requested: boolean; work: string | null } | undefined;
    if (!row) return undefined;
    return {
      runId: options.runId,
      owner: options.owner,
      epoch: row.epoch,
      status: row.status,
      cancelRequested: row.cancel_requested,
      ...(row.work === null ? {} : { work: JSON.parse(row.work) as RunWork }),
    };
  }

  async renewClaim(claim: RunClaim, leaseMs: number): Promise<{ held: boolean; cancelRequested: boolean }> {
    const { rows } = await this.query(
      `UPDATE runs SET lease_until = clock_timestamp() + $3 * interval '1 millisecond'
         WHERE id = $1 AND epoch = $2 RETURNING cancel_requested`,
      [claim.runId, claim.epoch, leaseMs],
    );
    return { held: rows.length > 0, cancelRequested: rows[0]?.cancel_requested === true };
  }

  async releaseClaim(claim: RunClaim): Promise<void> {
    await this.query(
      "UPDATE runs SET owner = NULL, lease_until = NULL WHERE id = $1 AND epoch = $2",
      [claim.runId, claim.epoch],
      "write",
    );
  }

  async listUnclaimedRuns(limit = 100): Promise<{ runId: string; epoch: number; status: RunStatus }[]> {
    const { rows } = await this.query(
      `SELECT id, epoch, status FROM runs WHERE status IN ('queued', 'running')
         AND (lease_until IS NULL OR lease_until <= clock_timestamp()) ORDER BY position LIMIT $1`,
      [limit],
    );
    return (rows as { id: string; epoch: number; status: RunStatus }[]).map((row) => ({
      runId: row.id,
      epoch: row.epoch,
      status: row.status,
    }));
  }

  async queueResume(options: {
    runId: string;
    resumeToken: string;
    work: RunWork;
    leaseMs: number;
    patch?: RunPatch;
  }): Promise<{ run: RunRecord; epoch: number } | undefined> {
    const patch: RunPatch = {
      ...options.patch,
      status: "queued",
      work: options.work,
      leaseMs: options.leaseMs,
    };
    const { sets, params } = getPgRunSets(patch, 3);
    const { rows } = await this.query(
      `UPDATE runs SET ${sets.join(", ")}
         WHERE id = $1 AND status = 'paused' AND pause::json->>'resumeToken' = $2
           AND (owner IS NULL OR lease_until IS NULL OR lease_until <= clock_timestamp())
         RETURNING *`,
      [options.runId, options.resumeToken, ...params],
    );
    const row = rows[0] as (PgRunRow & { epoch: number }) | undefined;
    return row ? { run: toPgRunRecord(row), epoch: row.epoch } : undefined;
  }

  async requestCancel(runId: string): Promise<void> {
    await this.query("UPDATE runs SET cancel_requested = true WHERE id = $1", [runId]);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }

  private async insertVersion(
    query: Query,
    options: { id: string; version: number; spec: AgentSpec; message: string | undefined; now: string },
  ): Promise<void> {
    await query(
      `INSERT INTO agent_versions (agent_id, version, name, message, spec, created_at)
         VALUES ($1, $2, $3, $4, $5, $6)`,
      [
        options.id,
        options.version,
        options.spec.name,
        options.message ?? null,
        JSON.stringify(options.spec),
        options.now,
      ],
    );
  }

  private query(text: string, params?: unknown[], kind: OperationKind = "read"): Promise<pg.QueryResult> {
    return this.retry(kind, () => this.pool.query(text, params));
  }

  /** Runs `body` in a transaction on one pooled connection; the whole of it is retried on a broken one. */
  private transaction<T>(
    kind: OperationKind,
    body: (query: Query, attempt: number) => Promise<T>,
  ): Promise<T> {
    return this.retry(kind, async (attempt) => {
      const client = await this.pool.connect();
      let broken: Error | undefined;
      try {
        await client.query("BEGIN");
        const result = await body((text, params) => client.query(text, params), attempt);
        await client.query("COMMIT");
        return result;
      } catch (error) {
        if (isPgConnectionError(error)) broken = error as Error;
        else await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      } finally {
        client.release(broken);
      }
    });
  }

  /** Retries an operation whose connection broke, with backoff, until its kind's limit has passed. */
  private async retry<T>(kind: OperationKind, operation: (attempt: number) => Promise<T>): Promise<T> {
    const started = Date.now();
    const limit =
      kind === "write" ? (this.options.retryForMs ?? 300_000) : (this.options.readRetryForMs ?? 5_000);
    for (let attempt = 0; ; attempt += 1) {
      if (this.closed) throw new StoreError("closed", "The store is closed.");
      try {
        const result = await operation(attempt);
        this.setAvailable(true);
        return result;
      } catch (error) {
        if (!isPgConnectionError(error) || this.closed) throw error;
        this.setAvailable(false, error as Error);
        if (Date.now() - started >= limit) throw error;
        await sleep(Math.min(1_000, 50 * 2 ** attempt));
      }
    }
  }

  private setAvailable(available: boolean, error?: Error): void {
    if (available === this.available) return;
    this.available = available;
    this.options.onAvailability?.(available, error);
  }
}

async function assertFence(query: Query, runId: string, epoch: number): Promise<void> {
  const { rows } = await query("SELECT epoch FROM runs WHERE id = $1 FOR UPDATE", [runId]);
  const row = rows[0] as { epoch: number } | undefined;
  if (!row) throw new StoreError("not_found", `Run "${runId}" does not exist.`);
  if (row.epoch !== epoch) throw fencedError(runId, epoch, row.epoch);
}

async function appendRunEvents(query: Query, runId: string, entries: readonly EventEntry[]): Promise<void> {
  const first = entries[0]!.event.seq;
  entries.forEach((entry, index) => {
    if (entry.event.seq !== first + index) {
      throw new StoreError(
        "seq_gap",
        `Event seq ${entry.event.seq} of run "${runId}" does not follow ${first + index - 1}.`,
        { lastSeq: first + index - 1, seq: entry.event.seq },
      );
    }
  });
  const last = first + entries.length - 1;
  const advanced = await query("UPDATE runs SET last_seq = $1 WHERE id = $2 AND last_seq = $3", [
    last,
    runId,
    first - 1,
  ]);
  if (advanced.rowCount === 0) {
    const { rows } = await query("SELECT last_seq FROM runs WHERE id = $1", [runId]);
    const lastSeq = rows[0]?.last_seq as number | undefined;
    if (lastSeq === undefined) throw new StoreError("not_found", `Run "${runId}" does not exist.`);
    throw new StoreError("seq_gap", `Event seq ${first} of run "${runId}" does not follow ${lastSeq}.`, {
      lastSeq,
      seq: first,
    });
  }
  await query(
    `INSERT INTO run_events (run_id, seq, type, event)
       SELECT $1, * FROM unnest($2::integer[], $3::text[], $4::text[])`,
    [
      runId,
      entries.map((entry) => entry.event.seq),
      entries.map((entry) => entry.event.type),
      entries.map((entry) => JSON.stringify(entry.event)),
    ],
  );
  const patch: RunPatch = {};
  for (const entry of entries) Object.assign(patch, entry.options?.run);
  if (Object.keys(patch).length > 0) await patchRun(query, runId, patch);
  for (const entry of entries) {
    const task = entry.options?.task;
    if (!task) continue;
    await query(
      `INSERT INTO tasks (run_id, task_id, record) VALUES ($1, $2, $3)
         ON CONFLICT (run_id, task_id) DO UPDATE SET record = EXCLUDED.record`,
      [task.runId, task.taskId, JSON.stringify(task)],
    );
  }
}

async function patchRun(query: Query, id: string, patch: RunPatch): Promise<void> {
  const { sets, params } = getPgRunSets(patch, 2);
  const result =
    sets.length === 0
      ? await query("SELECT 1 FROM runs WHERE id = $1", [id])
      : await query(`UPDATE runs SET ${sets.join(", ")} WHERE id = $1`, [id, ...params]);
  if ((result.rowCount ?? 0) === 0) throw new StoreError("not_found", `Run "${id}" does not exist.`);
}

function toPgRunRecord(row: PgRunRow): RunRecord {
  return toRunRecord({ ...row, offline: row.offline ? 1 : 0 });
}

function isStoreError(error: unknown, code: string): error is StoreError {
  return error instanceof StoreError && error.code === code;
}
