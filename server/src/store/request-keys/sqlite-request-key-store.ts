import type Database from "better-sqlite3";
import type { RequestKeyRecord, RequestKeyReservation, RequestKeyStore } from "./request-key-store.js";
import { writeTransaction } from "../sqlite-write-transaction.js";

interface RequestKeyRow {
  scope: string;
  key: string;
  fingerprint: string;
  run_id: string | null;
  created_at: number;
  expires_at: number;
}

/** Request keys in the SQLite store's `request_keys` table. */
export class SqliteRequestKeyStore implements RequestKeyStore {
  constructor(private readonly db: Database.Database) {}

  async reserve(options: {
    scope: string;
    key: string;
    fingerprint: string;
    ttlMs: number;
    now?: number;
  }): Promise<RequestKeyReservation> {
    const now = options.now ?? Date.now();
    const { scope, key, fingerprint } = options;
    return writeTransaction(this.db, (): RequestKeyReservation => {
      this.db.prepare("DELETE FROM request_keys WHERE expires_at <= ?").run(now);
      const inserted = this.db
        .prepare(
          `INSERT OR IGNORE INTO request_keys (scope, key, fingerprint, run_id, created_at, expires_at)
           VALUES (?, ?, ?, NULL, ?, ?)`,
        )
        .run(scope, key, fingerprint, now, now + options.ttlMs);
      if (inserted.changes === 1) return { reserved: true };
      const row = this.db
        .prepare("SELECT * FROM request_keys WHERE scope = ? AND key = ?")
        .get(scope, key) as RequestKeyRow;
      return { reserved: false, record: toRecord(row) };
    })();
  }

  async setRun(options: { scope: string; key: string; runId: string }): Promise<void> {
    this.db
      .prepare("UPDATE request_keys SET run_id = ? WHERE scope = ? AND key = ?")
      .run(options.runId, options.scope, options.key);
  }

  async get(options: { scope: string; key: string }): Promise<RequestKeyRecord | undefined> {
    const row = this.db
      .prepare("SELECT * FROM request_keys WHERE scope = ? AND key = ?")
      .get(options.scope, options.key) as RequestKeyRow | undefined;
    return row && toRecord(row);
  }

  async release(options: { scope: string; key: string }): Promise<void> {
    this.db.prepare("DELETE FROM request_keys WHERE scope = ? AND key = ?").run(options.scope, options.key);
  }
}

export function toRecord(row: RequestKeyRow): RequestKeyRecord {
  return {
    scope: row.scope,
    key: row.key,
    fingerprint: row.fingerprint,
    ...(row.run_id === null ? {} : { runId: row.run_id }),
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
  };
}

export type { RequestKeyRow };
