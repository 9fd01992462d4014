import type { AuditAction, AuditEntry } from "@waddle/protocol";

/** What `AuditStore.list` filters on; newest first, at most `limit`. */
export interface AuditListOptions {
  /** ISO time: entries at or after it. */
  since?: string;
  actor?: string;
  action?: AuditAction;
  limit: number;
}

/**
 * The append-only audit log (SQLite, PostgreSQL, in memory; one conformance suite). There is no update and
 * no delete: the tables refuse both (triggers), and nothing in the code issues them.
 */
export interface AuditStore {
  append(entry: AuditEntry): Promise<void>;
  list(options: AuditListOptions): Promise<AuditEntry[]>;
}

/** An ISO time in the one form the stores compare as text (`toISOString`); undefined when not a time. */
export function normalizeAuditTime(value: string): string | undefined {
  const time = Date.parse(value);
  return Number.isFinite(time) ? new Date(time).toISOString() : undefined;
}
