import type { CredentialStore, StoredAllowList, StoredCredential } from "./credential-store.js";

/** Credentials in a Map, for the in-memory store. Values are copied in and out. */
export class MemoryCredentialStore implements CredentialStore {
  private readonly credentials = new Map<string, StoredCredential>();
  private allowList: StoredAllowList = { http: [], llm: [] };

  async list(): Promise<StoredCredential[]> {
    return [...this.credentials.values()].sort((a, b) => a.name.localeCompare(b.name)).map(copy);
  }

  async get(name: string): Promise<StoredCredential | undefined> {
    const found = this.credentials.get(name);
    return found && copy(found);
  }

  async put(credential: StoredCredential): Promise<void> {
    this.credentials.set(credential.name, copy(credential));
  }

  async delete(name: string): Promise<boolean> {
    return this.credentials.delete(name);
  }

  async getAllowList(): Promise<StoredAllowList> {
    return { http: [...this.allowList.http], llm: [...this.allowList.llm] };
  }

  async putAllowList(lists: StoredAllowList): Promise<void> {
    this.allowList = { http: [...new Set(lists.http)], llm: [...new Set(lists.llm)] };
  }
}

function copy(credential: StoredCredential): StoredCredential {
  return { ...credential, ...(credential.models ? { models: [...credential.models] } : {}) };
}
