import type pg from "pg";
import type { SessionEvent, SessionRecord, SessionSummary } from "@waddle/protocol";
import type { PgQuery } from "../request-keys/pg-request-key-store.js";
import { StoreError } from "../waddle-store.js";
import { appendToRecord, getSessionSummary, newSessionRecord } from "./session-rows.js";
import {
  DEFAULT_SESSIONS_LIMIT,
  type SessionChange,
  type SessionChangeResult,
  type SessionStore,
} from "./session-store.js";

/** Runs a body in one transaction on one connection, with the store's retries. */
export type PgTransaction = <T>(
  body: (query: (text: string, params?: unknown[]) => Promise<pg.QueryResult>) => Promise<T>,
) => Promise<T>;

/**
 * Sessions in the PostgreSQL store, as in SQLite; an update locks the session's row (`FOR UPDATE`), so
 * that of two instances deciding on one session, the second decides on what the first wrote.
 */
export class PgSessionStore implements SessionStore {
  constructor(
    private readonly query: PgQuery,
    private readonly transaction: PgTransaction,
  ) {}

  async create(options: Parameters<SessionStore["create"]>[0]): Promise<SessionRecord> {
    const record = newSessionRecord(options);
    const inserted = await this.query(
      `INSERT INTO sessions (id, agent_id, record, summary, updated_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (id) DO NOTHING`,
      [
        record.id,
        record.agentId,
        JSON.stringify(record),
        JSON.stringify(getSessionSummary(record)),
        record.updatedAt,
      ],
      "write",
    );
    if (inserted.rowCount !== 1) {
      throw new StoreError("conflict", `A session with id "${record.id}" already exists.`);
    }
    return record;
  }

  async get(id: string): Promise<SessionRecord | undefined> {
    const { rows } = await this.query("SELECT record FROM sessions WHERE id = $1", [id]);
    return rows[0] ? (JSON.parse(rows[0].record as string) as SessionRecord) : undefined;
  }

  async list(options: { agentId?: string; limit?: number } = {}): Promise<SessionSummary[]> {
    const limit = options.limit ?? DEFAULT_SESSIONS_LIMIT;
    const { rows } =
      options.agentId === undefined
        ? await this.query("SELECT summary FROM sessions ORDER BY updated_at DESC, id DESC LIMIT $1", [limit])
        : await this.query(
            "SELECT summary FROM sessions WHERE agent_id = $1 ORDER BY updated_at DESC, id DESC LIMIT $2",
            [options.agentId, limit],
          );
    return rows.map((row) => JSON.parse(row.summary as string) as SessionSummary);
  }

  async listWithPendingMerges(options: { agentId?: string; limit?: number } = {}): Promise<SessionRecord[]> {
    const limit = options.limit ?? DEFAULT_SESSIONS_LIMIT;
    // `pending_merges > 0` as written: the partial index (migration 17) serves only that condition.
    const { rows } =
      options.agentId === undefined
        ? await this.query(
            "SELECT record FROM sessions WHERE pending_merges > 0 ORDER BY updated_at DESC, id DESC LIMIT $1",
            [limit],
          )
        : await this.query(
            `SELECT record FROM sessions WHERE pending_merges > 0 AND agent_id = $1
             ORDER BY updated_at DESC, id DESC LIMIT $2`,
            [options.agentId, limit],
          );
    return rows.map((row) => JSON.parse(row.record as string) as SessionRecord);
  }

  async update<R>(id: string, change: SessionChange<R>): Promise<SessionChangeResult<R> | undefined> {
    return this.transaction(async (query) => {
      const { rows } = await query("SELECT record FROM sessions WHERE id = $1 FOR UPDATE", [id]);
      if (!rows[0]) return undefined;
      const current = JSON.parse(rows[0].record as string) as SessionRecord;
      const { events: newEvents, result } = change(structuredClone(current));
      if (newEvents.length === 0) return { record: current, events: [], result };
      const { record, events } = appendToRecord(current, newEvents);
      for (const event of events) {
        await query("INSERT INTO session_events (session_id, seq, event) VALUES ($1, $2, $3)", [
          id,
          event.seq,
          JSON.stringify(event),
        ]);
      }
      await query(
        "UPDATE sessions SET record = $1, summary = $2, updated_at = $3, pending_merges = $4 WHERE id = $5",
        [
          JSON.stringify(record),
          JSON.stringify(getSessionSummary(record)),
          record.updatedAt,
          record.pendingMerges.length,
          id,
        ],
      );
      return { record, events, result };
    });
  }

  async listEvents(id: string, options: { afterSeq?: number; limit?: number } = {}): Promise<SessionEvent[]> {
    const { rows } = await this.query(
      `SELECT event FROM session_events WHERE session_id = $1 AND seq > $2 ORDER BY seq
       ${options.limit === undefined ? "" : "LIMIT $3"}`,
      options.limit === undefined ? [id, options.afterSeq ?? 0] : [id, options.afterSeq ?? 0, options.limit],
    );
    return rows.map((row) => JSON.parse(row.event as string) as SessionEvent);
  }
}
