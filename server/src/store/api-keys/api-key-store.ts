import type { Role } from "@waddle/protocol";

/**
 * An API key as stored: its secret only as a salted scrypt hash (`hash`), never in the clear. `id` is the
 * public lookup id that the key itself carries (`wdl_<id>_<secret>`).
 */
export interface StoredApiKey {
  id: string;
  name: string;
  role: Role;
  /** The agents the key is limited to; null: every agent. */
  agents: string[] | null;
  canDecide: boolean;
  /** An `editor` key that may also release to `production`. */
  canRelease?: boolean;
  /** The key's own rate limit (`60/min`, `5/s`, `100/h`); null: the server's default. */
  rateLimit: string | null;
  expiresAt: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  /** `scrypt$N$r$p$<salt base64url>$<hash base64url>` */
  hash: string;
}

/** API keys; SQLite, PostgreSQL and in-memory, under one conformance suite. */
export interface ApiKeyStore {
  /** Stores a new key; its id must be new. */
  create(key: StoredApiKey): Promise<void>;
  /** Every key, revoked ones too, oldest first. */
  list(): Promise<StoredApiKey[]>;
  /** The key of that lookup id, revoked or not. */
  get(id: string): Promise<StoredApiKey | undefined>;
  /** Marks the key revoked at `at`; false when there is no such key or it was revoked already. */
  revoke(id: string, at: string): Promise<boolean>;
  /** Records the key's last use. */
  touch(id: string, at: string): Promise<void>;
}
