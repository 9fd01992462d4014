import type pg from "pg";
import type { AuditEntry } from "@waddle/protocol";
import type { AuditListOptions, AuditStore } from "./audit-store.js";
import { AUDIT_COLUMNS, getAuditFilter, toAuditEntry, toAuditValues, type AuditRow } from "./audit-rows.js";

/** Runs one statement with the store's retries on a broken connection. */
export type PgQuery = (text: string, params?: unknown[], kind?: "read" | "write") => Promise<pg.QueryResult>;

/** The audit log in the PostgreSQL store's `audit_log` table: inserted and read, never changed. */
export class PgAuditStore implements AuditStore {
  constructor(private readonly query: PgQuery) {}

  async append(entry: AuditEntry): Promise<void> {
    await this.query(
      `INSERT INTO audit_log (${AUDIT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      toAuditValues(entry),
      "write",
    );
  }

  async list(options: AuditListOptions): Promise<AuditEntry[]> {
    const { where, values } = getAuditFilter(options, (index) => `$${index}`);
    const { rows } = await this.query(
      `SELECT ${AUDIT_COLUMNS} FROM audit_log ${where} ORDER BY seq DESC LIMIT $${values.length + 1}`,
      [...values, options.limit],
    );
    return (rows as AuditRow[]).map(toAuditEntry);
  }
}
