import type Database from "better-sqlite3";
import type { SessionEvent, SessionRecord, SessionSummary } from "@waddle/protocol";
import { StoreError } from "../waddle-store.js";
import { appendToRecord, getSessionSummary, newSessionRecord } from "./session-rows.js";
import {
  DEFAULT_SESSIONS_LIMIT,
  type SessionChange,
  type SessionChangeResult,
  type SessionStore,
} from "./session-store.js";
import { writeTransaction } from "../sqlite-write-transaction.js";

/**
 * Sessions in the SQLite store: `sessions` keeps each record (the fold of its log) and its summary,
 * `session_events` the log. An update is one synchronous transaction: nothing runs between its read and
 * its write.
 */
export class SqliteSessionStore implements SessionStore {
  constructor(private readonly db: Database.Database) {}

  async create(options: Parameters<SessionStore["create"]>[0]): Promise<SessionRecord> {
    const record = newSessionRecord(options);
    const inserted = this.db
      .prepare(
        `INSERT OR IGNORE INTO sessions (id, agent_id, record, summary, updated_at)
         VALUES (?, ?, ?, ?, ?)`,
      )
      .run(
        record.id,
        record.agentId,
        JSON.stringify(record),
        JSON.stringify(getSessionSummary(record)),
        record.updatedAt,
      );
    if (inserted.changes !== 1) {
      throw new StoreError("conflict", `A session with id "${record.id}" already exists.`);
    }
    return record;
  }

  async get(id: string): Promise<SessionRecord | undefined> {
    const row = this.db.prepare("SELECT record FROM sessions WHERE id = ?").get(id) as
      { record: string } | undefined;
    return row && (JSON.parse(row.record) as SessionRecord);
  }

  async list(options: { agentId?: string; limit?: number } = {}): Promise<SessionSummary[]> {
    const limit = options.limit ?? DEFAULT_SESSIONS_LIMIT;
    const rows = (
      options.agentId === undefined
        ? this.db.prepare("SELECT summary FROM sessions ORDER BY updated_at DESC, id DESC LIMIT ?").all(limit)
        : this.db
            .prepare(
              "SELECT summary FROM sessions WHERE agent_id = ? ORDER BY updated_at DESC, id DESC LIMIT ?",
            )
            .all(options.agentId, limit)
    ) as { summary: string }[];
    return rows.map((row) => JSON.parse(row.summary) as SessionSummary);
  }

  async listWithPendingMerges(options: { agentId?: string; limit?: number } = {}): Promise<SessionRecord[]> {
    const limit = options.limit ?? DEFAULT_SESSIONS_LIMIT;
    // `pending_merges > 0` as written: the partial index (migration 20) serves only that condition.
    const rows = (
      options.agentId === undefined
        ? this.db
            .prepare(
              "SELECT record FROM sessions WHERE pending_merges > 0 ORDER BY updated_at DESC, id DESC LIMIT ?",
            )
            .all(limit)
        : this.db
            .prepare(
              `SELECT record FROM sessions WHERE pending_merges > 0 AND agent_id = ?
               ORDER BY updated_at DESC, id DESC LIMIT ?`,
            )
            .all(options.agentId, limit)
    ) as { record: string }[];
    return rows.map((row) => JSON.parse(row.record) as SessionRecord);
  }

  async update<R>(id: string, change: SessionChange<R>): Promise<SessionChangeResult<R> | undefined> {
    return writeTransaction(this.db, (): SessionChangeResult<R> | undefined => {
      const row = this.db.prepare("SELECT record FROM sessions WHERE id = ?").get(id) as
        { record: string } | undefined;
      if (!row) return undefined;
      const current = JSON.parse(row.record) as SessionRecord;
      const { events: newEvents, result } = change(structuredClone(current));
      if (newEvents.length === 0) return { record: current, events: [], result };
      const { record, events } = appendToRecord(current, newEvents);
      const insert = this.db.prepare("INSERT INTO session_events (session_id, seq, event) VALUES (?, ?, ?)");
      for (const event of events) insert.run(id, event.seq, JSON.stringify(event));
      this.db
        .prepare(
          "UPDATE sessions SET record = ?, summary = ?, updated_at = ?, pending_merges = ? WHERE id = ?",
        )
        .run(
          JSON.stringify(record),
          JSON.stringify(getSessionSummary(record)),
          record.updatedAt,
          record.pendingMerges.length,
          id,
        );
      return { record, events, result };
    })();
  }

  async listEvents(id: string, options: { afterSeq?: number; limit?: number } = {}): Promise<SessionEvent[]> {
    const rows = this.db
      .prepare("SELECT event FROM session_events WHERE session_id = ? AND seq > ? ORDER BY seq LIMIT ?")
      .all(id, options.afterSeq ?? 0, options.limit ?? -1) as { event: string }[];
    return rows.map((row) => JSON.parse(row.event) as SessionEvent);
  }
}
