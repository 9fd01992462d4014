import { ROLES, type Role } from "@waddle/protocol";
import type { StoredApiKey } from "./api-key-store.js";

export interface ApiKeyRow {
  id: string;
  name: string;
  role: string;
  agents: string | null;
  can_decide: number | boolean;
  can_release?: number | boolean;
  rate_limit: string | null;
  expires_at: string | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  hash: string;
}

export const API_KEY_COLUMNS =
  "id, name, role, agents, can_decide, rate_limit, expires_at, created_at, last_used_at, revoked_at, hash, can_release";

/** The row's values in `API_KEY_COLUMNS` order; flags as the database spells booleans (`asFlag`). */
export function toApiKeyValues(key: StoredApiKey, asFlag: (value: boolean) => number | boolean): unknown[] {
  return [
    key.id,
    key.name,
    key.role,
    key.agents === null ? null : JSON.stringify(key.agents),
    asFlag(key.canDecide),
    key.rateLimit,
    key.expiresAt,
    key.createdAt,
    key.lastUsedAt,
    key.revokedAt,
    key.hash,
    asFlag(key.canRelease === true),
  ];
}

export function toStoredApiKey(row: ApiKeyRow): StoredApiKey {
  const role = (ROLES as readonly string[]).includes(row.role) ? (row.role as Role) : "viewer";
  const agents = row.agents === null ? null : (JSON.parse(row.agents) as unknown);
  return {
    id: row.id,
    name: row.name,
    role,
    agents: Array.isArray(agents)
      ? agents.filter((agent): agent is string => typeof agent === "string")
      : null,
    canDecide: row.can_decide === true || row.can_decide === 1,
    ...(row.can_release === true || row.can_release === 1 ? { canRelease: true } : {}),
    rateLimit: row.rate_limit,
    expiresAt: row.expires_at,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
    hash: row.hash,
  };
}
