import type Database from "better-sqlite3";
import type { ApiKeyStore, StoredApiKey } from "./api-key-store.js";
import { API_KEY_COLUMNS, toApiKeyValues, toStoredApiKey, type ApiKeyRow } from "./api-key-rows.js";

/** API keys in the SQLite store's `api_keys` table (migration 13). */
export class SqliteApiKeyStore implements ApiKeyStore {
  constructor(private readonly db: Database.Database) {}

  async create(key: StoredApiKey): Promise<void> {
    this.db
      .prepare(`INSERT INTO api_keys (${API_KEY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(...toApiKeyValues(key, (value) => (value ? 1 : 0)));
  }

  async list(): Promise<StoredApiKey[]> {
    const rows = this.db.prepare("SELECT * FROM api_keys ORDER BY created_at, id").all() as ApiKeyRow[];
    return rows.map(toStoredApiKey);
  }

  async get(id: string): Promise<StoredApiKey | undefined> {
    const row = this.db.prepare("SELECT * FROM api_keys WHERE id = ?").get(id) as ApiKeyRow | undefined;
    return row && toStoredApiKey(row);
  }

  async revoke(id: string, at: string): Promise<boolean> {
    return (
      this.db.prepare("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL").run(at, id)
        .changes > 0
    );
  }

  async touch(id: string, at: string): Promise<void> {
    this.db.prepare("UPDATE api_keys SET last_used_at = ? WHERE id = ?").run(at, id);
  }
}
