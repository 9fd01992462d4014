import type { PgQuery } from "../request-keys/pg-request-key-store.js";
import type { PgTransaction } from "../sessions/pg-session-store.js";
import type { CredentialStore, StoredAllowList, StoredCredential } from "./credential-store.js";
import {
  CREDENTIAL_COLUMNS,
  toAllowLists,
  toCredentialValues,
  toStoredCredential,
  type AllowListRow,
  type CredentialRow,
} from "./credential-rows.js";

/**
 * Credentials in the PostgreSQL store's `credentials` and `allow_list` tables (migration 5): in queue mode
 * every instance reads the same ones.
 */
export class PgCredentialStore implements CredentialStore {
  constructor(
    private readonly query: PgQuery,
    private readonly transaction: PgTransaction,
  ) {}

  async list(): Promise<StoredCredential[]> {
    const { rows } = await this.query("SELECT * FROM credentials ORDER BY name");
    return (rows as CredentialRow[]).map(toStoredCredential);
  }

  async get(name: string): Promise<StoredCredential | undefined> {
    const { rows } = await this.query("SELECT * FROM credentials WHERE name = $1", [name]);
    return rows[0] ? toStoredCredential(rows[0] as CredentialRow) : undefined;
  }

  async put(credential: StoredCredential): Promise<void> {
    await this.query(
      `INSERT INTO credentials (${CREDENTIAL_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (name) DO UPDATE SET kind = EXCLUDED.kind, sealed = EXCLUDED.sealed,
         last4 = EXCLUDED.last4, base_url = EXCLUDED.base_url, models = EXCLUDED.models,
         updated_at = EXCLUDED.updated_at`,
      toCredentialValues(credential),
      "write",
    );
  }

  async delete(name: string): Promise<boolean> {
    const result = await this.query("DELETE FROM credentials WHERE name = $1", [name], "write");
    return (result.rowCount ?? 0) > 0;
  }

  async getAllowList(): Promise<StoredAllowList> {
    const { rows } = await this.query("SELECT list, entry FROM allow_list ORDER BY list, position");
    return toAllowLists(rows as AllowListRow[]);
  }

  async putAllowList(lists: StoredAllowList): Promise<void> {
    await this.transaction(async (query) => {
      await query("DELETE FROM allow_list");
      for (const list of ["http", "llm"] as const) {
        const entries = [...new Set(lists[list])];
        for (const [position, entry] of entries.entries())
          await query("INSERT INTO allow_list (list, entry, position) VALUES ($1, $2, $3)", [
            list,
            entry,
            position,
          ]);
      }
    });
  }
}
