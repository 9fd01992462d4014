import { AuditEntry } from "@waddle/protocol";
import { normalizeAuditTime, type AuditListOptions } from "./audit-store.js";

/** A row of `audit_log` (SQLite and PostgreSQL name their columns alike). */
export interface AuditRow {
  id: string;
  at: string;
  actor: string;
  actor_key_id: string | null;
  action: string;
  target_type: string;
  target_id: string;
  details: string;
  ip: string | null;
}

export const AUDIT_COLUMNS =
  "id, at, actor, actor_key_id, action, target_type, target_id, details, ip" as const;

export function toAuditValues(entry: AuditEntry): unknown[] {
  return [
    entry.id,
    normalizeAuditTime(entry.at) ?? entry.at,
    entry.actor,
    entry.actorKeyId,
    entry.action,
    entry.target.type,
    entry.target.id,
    JSON.stringify(entry.details),
    entry.ip ?? null,
  ];
}

/** A stored row, checked: a row that does not read as an entry is a corrupt log and throws. */
export function toAuditEntry(row: AuditRow): AuditEntry {
  return AuditEntry.parse({
    id: row.id,
    at: row.at,
    actor: row.actor,
    actorKeyId: row.actor_key_id,
    action: row.action,
    target: { type: row.target_type, id: row.target_id },
    details: JSON.parse(row.details) as unknown,
    ...(row.ip === null ? {} : { ip: row.ip }),
  });
}

/** The WHERE clause and its values; `placeholder(n)` is `?` (SQLite) or `$n` (PostgreSQL). */
export function getAuditFilter(
  options: AuditListOptions,
  placeholder: (index: number) => string,
): { where: string; values: unknown[] } {
  const clauses: string[] = [];
  const values: unknown[] = [];
  const add = (column: string, operator: string, value: unknown) => {
    values.push(value);
    clauses.push(`${column} ${operator} ${placeholder(values.length)}`);
  };
  if (options.since !== undefined) add("at", ">=", normalizeAuditTime(options.since) ?? options.since);
  if (options.actor !== undefined) add("actor", "=", options.actor);
  if (options.action !== undefined) add("action", "=", options.action);
  return { where: clauses.length > 0 ? `WHERE ${clauses.join(" AND ")}` : "", values };
}
