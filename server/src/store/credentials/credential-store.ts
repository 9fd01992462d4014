/** A credential as stored: its value sealed (`SecretBox`), never in the clear. */
export interface StoredCredential {
  name: string;
  kind: "llm" | "secret";
  /** The value encrypted with the server's secrets key. */
  sealed: string;
  /** The value's last 4 characters, the only part of it the API shows. */
  last4: string;
  /** An LLM credential's OpenAI-compatible endpoint. */
  baseUrl?: string;
  /** An LLM credential's models, when listed. */
  models?: string[];
  updatedAt: string;
}

/** The allow-list entries added from the browser (the environment's are never stored). */
export interface StoredAllowList {
  http: string[];
  llm: string[];
}

/** Credentials and added allow-list entries; SQLite, PostgreSQL and in-memory, under one conformance suite. */
export interface CredentialStore {
  /** Every stored credential, by name. */
  list(): Promise<StoredCredential[]>;
  get(name: string): Promise<StoredCredential | undefined>;
  /** Creates or replaces the credential of that name. */
  put(credential: StoredCredential): Promise<void>;
  /** False when there was none of that name. */
  delete(name: string): Promise<boolean>;
  getAllowList(): Promise<StoredAllowList>;
  /** Replaces both stored lists at once (entries kept in the given order, without repeats). */
  putAllowList(lists: StoredAllowList): Promise<void>;
}
