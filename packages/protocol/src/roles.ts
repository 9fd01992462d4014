import { z } from "zod";

/** The four roles of an API key, lowest first: each may do all that the ones before it may (server/docs/access.md). */
export const ROLES = ["viewer", "runner", "editor", "admin"] as const;
export type Role = (typeof ROLES)[number];

/** `POST /api/keys`: a new key; `key` is sent this once and never again. */
export interface CreateApiKeyRequest {
  name: string;
  role: Role;
  agents?: string[];
  expiresAt?: string;
  canDecide?: boolean;
  /** An editor key that may also release to `production`. */
  canRelease?: boolean;
  rateLimit?: string;
}
export const CreateApiKeyResponse = z.object({ id: z.string(), key: z.string() });
export type CreateApiKeyResponse = z.infer<typeof CreateApiKeyResponse>;

/** A key as `GET /api/keys` shows it: never its secret or hash. */
export const ApiKeySummary = z.object({
  id: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
  agents: z.array(z.string()).nullable(),
  canDecide: z.boolean(),
  canRelease: z.boolean().optional(),
  rateLimit: z.string().nullable(),
  expiresAt: z.string().nullable(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type ApiKeySummary = z.infer<typeof ApiKeySummary>;
export const ApiKeysResponse = z.object({ keys: z.array(ApiKeySummary) });
