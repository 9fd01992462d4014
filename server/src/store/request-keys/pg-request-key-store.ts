import type pg from "pg";
import type { RequestKeyRecord, RequestKeyReservation, RequestKeyStore } from "./request-key-store.js";
import { toRecord, type RequestKeyRow } from "./sqlite-request-key-store.js";

/** Runs one statement with the store's retries on a broken connection. */
export type PgQuery = (text: string, params?: unknown[], kind?: "read" | "write") => Promise<pg.QueryResult>;

/** Request keys in the PostgreSQL store's `request_keys` table; one of concurrent reservations wins. */
export class PgRequestKeyStore implements RequestKeyStore {
  constructor(private readonly query: PgQuery) {}

  async reserve(options: {
    scope: string;
    key: string;
    fingerprint: string;
    ttlMs: number;
    now?: number;
  }): Promise<RequestKeyReservation> {
    const now = options.now ?? Date.now();
    const { scope, key, fingerprint } = options;
    await this.query("DELETE FROM request_keys WHERE expires_at <= $1", [now], "write");
    const inserted = await this.query(
      `INSERT INTO request_keys (scope, key, fingerprint, run_id, created_at, expires_at)
       VALUES ($1, $2, $3, NULL, $4, $5) ON CONFLICT (scope, key) DO NOTHING RETURNING key`,
      [scope, key, fingerprint, now, now + options.ttlMs],
      "write",
    );
    if (inserted.rowCount === 1) return { reserved: true };
    const record = await this.get({ scope, key });
    // Gone between the two statements (released, or expired and swept): take it again.
    return record ? { reserved: false, record } : this.reserve(options);
  }

  async setRun(options: { scope: string; key: string; runId: string }): Promise<void> {
    await this.query(
      "UPDATE request_keys SET run_id = $1 WHERE scope = $2 AND key = $3",
      [options.runId, options.scope, options.key],
      "write",
    );
  }

  async get(options: { scope: string; key: string }): Promise<RequestKeyRecord | undefined> {
    const { rows } = await this.query("SELECT * FROM request_keys WHERE scope = $1 AND key = $2", [
      options.scope,
      options.key,
    ]);
    return rows[0] ? toRecord(rows[0] as RequestKeyRow) : undefined;
  }

  async release(options: { scope: string; key: string }): Promise<void> {
    await this.query(
      "DELETE FROM request_keys WHERE scope = $1 AND key = $2",
      [options.scope, options.key],
      "write",
    );
  }
}
