import type { PgQuery } from "../request-keys/pg-request-key-store.js";
import type { ApiKeyStore, StoredApiKey } from "./api-key-store.js";
import { API_KEY_COLUMNS, toApiKeyValues, toStoredApiKey, type ApiKeyRow } from "./api-key-rows.js";

/** API keys in the PostgreSQL store's `api_keys` table (migration 10): every instance reads the same ones. */
export class PgApiKeyStore implements ApiKeyStore {
  constructor(private readonly query: PgQuery) {}

  async create(key: StoredApiKey): Promise<void> {
    await this.query(
      `INSERT INTO api_keys (${API_KEY_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      toApiKeyValues(key, (value) => value),
      "write",
    );
  }

  async list(): Promise<StoredApiKey[]> {
    const { rows } = await this.query("SELECT * FROM api_keys ORDER BY created_at, id");
    return (rows as ApiKeyRow[]).map(toStoredApiKey);
  }

  async get(id: string): Promise<StoredApiKey | undefined> {
    const { rows } = await this.query("SELECT * FROM api_keys WHERE id = $1", [id]);
    return rows[0] ? toStoredApiKey(rows[0] as ApiKeyRow) : undefined;
  }

  async revoke(id: string, at: string): Promise<boolean> {
    const result = await this.query(
      "UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL",
      [at, id],
      "write",
    );
    return (result.rowCount ?? 0) > 0;
  }

  async touch(id: string, at: string): Promise<void> {
    await this.query("UPDATE api_keys SET last_used_at = $1 WHERE id = $2", [at, id], "write");
  }
}
