import type { ApiKeySummary } from "@waddle/protocol";
import type { Me } from "../store/me-store.js";

/**
 * What the Access page says about signing in when no key is active, from how this server is set up as
 * `GET /api/me` tells it: with `WADDLE_TOKEN` sign-in is needed (the token is the admin), without one a
 * server with no active key needs none (and listens on 127.0.0.1 only). Null while some key is active.
 */
export function getSignInNote(options: {
  kind: Me["kind"];
  keys: readonly Pick<ApiKeySummary, "revokedAt" | "expiresAt">[];
  now: number;
}): string | null {
  const { kind, keys, now } = options;
  const active = keys.some(
    (key) => key.revokedAt === null && (key.expiresAt === null || Date.parse(key.expiresAt) > now),
  );
  if (active) return null;
  const none = keys.length === 0 ? "No keys yet" : "No active keys";
  if (kind === "token")
    return `${none}: this server has a WADDLE_TOKEN, so everyone signs in, for now with that token (an admin). Create a key for each person or program, with only the role it needs.`;
  if (kind === "local")
    return `${none}: this server has no WADDLE_TOKEN, so it needs no sign-in and listens on 127.0.0.1 only. Once a key exists, every request needs one.`;
  return `${none}.`;
}
