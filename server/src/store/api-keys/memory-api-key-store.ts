import type { ApiKeyStore, StoredApiKey } from "./api-key-store.js";

/** API keys in a Map, for the in-memory store. Records are copied in and out. */
export class MemoryApiKeyStore implements ApiKeyStore {
  private readonly keys = new Map<string, StoredApiKey>();

  async create(key: StoredApiKey): Promise<void> {
    if (this.keys.has(key.id)) throw new Error(`API key "${key.id}" exists already.`);
    this.keys.set(key.id, copy(key));
  }

  async list(): Promise<StoredApiKey[]> {
    return [...this.keys.values()]
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
      .map(copy);
  }

  async get(id: string): Promise<StoredApiKey | undefined> {
    const found = this.keys.get(id);
    return found && copy(found);
  }

  async revoke(id: string, at: string): Promise<boolean> {
    const found = this.keys.get(id);
    if (!found || found.revokedAt !== null) return false;
    found.revokedAt = at;
    return true;
  }

  async touch(id: string, at: string): Promise<void> {
    const found = this.keys.get(id);
    if (found) found.lastUsedAt = at;
  }
}

function copy(key: StoredApiKey): StoredApiKey {
  return { ...key, agents: key.agents === null ? null : [...key.agents] };
}
