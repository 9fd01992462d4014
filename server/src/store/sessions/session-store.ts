import type { NewSessionEvent, SessionEvent, SessionRecord, SessionSummary } from "@waddle/protocol";

/**
 * A change to a session, decided on its current record inside the store's transaction (the record is
 * locked while `change` runs, on every instance): the events to append, and what to answer. Returning no
 * events writes nothing. This is how every conditional write on a session is made: a turn that may start,
 * a merge that may be decided once.
 */
export type SessionChange<R> = (record: SessionRecord) => { events: readonly NewSessionEvent[]; result: R };

export interface SessionChangeResult<R> {
  record: SessionRecord;
  /** The events appended, with their `seq`. */
  events: SessionEvent[];
  result: R;
}

/**
 * Sessions and their ordered logs; the record is the fold of the log (`applySessionEvent`), kept beside it
 * so that a read costs one row. SQLite, PostgreSQL and in-memory, under one conformance suite.
 */
export interface SessionStore {
  create(options: {
    id: string;
    agentId: string;
    agentVersion: number;
    /** The channel `agentVersion` was resolved from, if one was. */
    channel?: string;
    title?: string;
    now?: string;
  }): Promise<SessionRecord>;
  get(id: string): Promise<SessionRecord | undefined>;
  /** Newest activity first; `limit` defaults to 100. */
  list(options?: { agentId?: string; limit?: number }): Promise<SessionSummary[]>;
  /** Appends what `change` decides on the current record, in one transaction; undefined for an unknown id. */
  update<R>(id: string, change: SessionChange<R>): Promise<SessionChangeResult<R> | undefined>;
  /**
   * Sessions holding merges for a person (`pendingMerges`), newest activity first, at most `limit`
   * (default 100): through an index of their count, for the approvals inbox.
   */
  listWithPendingMerges(options?: { agentId?: string; limit?: number }): Promise<SessionRecord[]>;
  /** The log after `afterSeq`, in order, at most `limit`. */
  listEvents(id: string, options?: { afterSeq?: number; limit?: number }): Promise<SessionEvent[]>;
}

export const DEFAULT_SESSIONS_LIMIT = 100;
