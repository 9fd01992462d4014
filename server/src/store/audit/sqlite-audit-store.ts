import type Database from "better-sqlite3";
import type { AuditEntry } from "@waddle/protocol";
import type { AuditListOptions, AuditStore } from "./audit-store.js";
import { AUDIT_COLUMNS, getAuditFilter, toAuditEntry, toAuditValues, type AuditRow } from "./audit-rows.js";

/** The audit log in the SQLite store's `audit_log` table: inserted and read, never changed. */
export class SqliteAuditStore implements AuditStore {
  constructor(private readonly db: Database.Database) {}

  async append(entry: AuditEntry): Promise<void> {
    this.db
      .prepare(`INSERT INTO audit_log (${AUDIT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(...toAuditValues(entry));
  }

  async list(options: AuditListOptions): Promise<AuditEntry[]> {
    const { where, values } = getAuditFilter(options, () => "?");
    const rows = this.db
      .prepare(`SELECT ${AUDIT_COLUMNS} FROM audit_log ${where} ORDER BY seq DESC LIMIT ?`)
      .all(...values, options.limit) as AuditRow[];
    return rows.map(toAuditEntry);
  }
}
