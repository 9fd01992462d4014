import type { SessionEvent, SessionRecord, SessionSummary } from "@waddle/protocol";
import { StoreError } from "../waddle-store.js";
import { appendToRecord, getSessionSummary, newSessionRecord } from "./session-rows.js";
import {
  DEFAULT_SESSIONS_LIMIT,
  type SessionChange,
  type SessionChangeResult,
  type SessionStore,
} from "./session-store.js";

/** Sessions in Maps, for the in-memory store. */
export class MemorySessionStore implements SessionStore {
  private readonly records = new Map<string, SessionRecord>();
  private readonly logs = new Map<string, SessionEvent[]>();

  async create(options: Parameters<SessionStore["create"]>[0]): Promise<SessionRecord> {
    if (this.records.has(options.id)) {
      throw new StoreError("conflict", `A session with id "${options.id}" already exists.`);
    }
    const record = newSessionRecord(options);
    this.records.set(record.id, record);
    this.logs.set(record.id, []);
    return structuredClone(record);
  }

  async get(id: string): Promise<SessionRecord | undefined> {
    const record = this.records.get(id);
    return record && structuredClone(record);
  }

  async list(options: { agentId?: string; limit?: number } = {}): Promise<SessionSummary[]> {
    return [...this.records.values()]
      .filter((record) => options.agentId === undefined || record.agentId === options.agentId)
      .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id.localeCompare(a.id))
      .slice(0, options.limit ?? DEFAULT_SESSIONS_LIMIT)
      .map(getSessionSummary);
  }

  async listWithPendingMerges(options: { agentId?: string; limit?: number } = {}): Promise<SessionRecord[]> {
    return [...this.records.values()]
      .filter((record) => record.pendingMerges.length > 0)
      .filter((record) => options.agentId === undefined || record.agentId === options.agentId)
      .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id.localeCompare(a.id))
      .slice(0, options.limit ?? DEFAULT_SESSIONS_LIMIT)
      .map((record) => structuredClone(record));
  }

  async update<R>(id: string, change: SessionChange<R>): Promise<SessionChangeResult<R> | undefined> {
    const current = this.records.get(id);
    if (!current) return undefined;
    const { events: newEvents, result } = change(structuredClone(current));
    const { record, events } = appendToRecord(current, newEvents);
    this.records.set(id, record);
    this.logs.get(id)?.push(...events);
    return { record: structuredClone(record), events: structuredClone(events), result };
  }

  async listEvents(id: string, options: { afterSeq?: number; limit?: number } = {}): Promise<SessionEvent[]> {
    const after = options.afterSeq ?? 0;
    const events = (this.logs.get(id) ?? []).filter((event) => event.seq > after);
    return structuredClone(options.limit === undefined ? events : events.slice(0, options.limit));
  }
}
