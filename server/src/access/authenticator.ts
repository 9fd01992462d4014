import { createHash, timingSafeEqual } from "node:crypto";
import type { ApiKeyStore, StoredApiKey } from "../store/api-keys/api-key-store.js";
import { checkToken } from "./check-token.js";
import { LOCAL_ACTOR, type Actor } from "./actor.js";
import { parseApiKey, verifySecret } from "./api-key-secret.js";
import { isPublicCredential } from "./public-credential-prefixes.js";

/** How long a verified key is trusted from memory before its record is read again (revocation elsewhere). */
const RECHECK_MS = 1_000;
/** How often a key's last use is written at most. */
const TOUCH_EVERY_MS = 60_000;

export const TOKEN_ACTOR: Actor = Object.freeze({
  kind: "token",
  name: "WADDLE_TOKEN",
  keyId: null,
  role: "admin",
  agents: null,
  canDecide: true,
});

interface Verified {
  digest: Buffer;
  record: StoredApiKey;
  readAt: number;
  touchedAt: number;
}

const sha256 = (value: string) => createHash("sha256").update(value, "utf8").digest();

/** The actor of a stored key. */
export function toKeyActor(record: StoredApiKey): Actor {
  return Object.freeze({
    kind: "key" as const,
    name: record.name,
    keyId: record.id,
    role: record.role,
    agents: record.agents === null ? null : Object.freeze([...record.agents]),
    canDecide: record.canDecide,
    ...(record.rateLimit === null ? {} : { rateLimit: record.rateLimit }),
  });
}

/** True when the key is neither revoked nor past its expiry. */
export function isActive(record: StoredApiKey, now: number): boolean {
  return record.revokedAt === null && (record.expiresAt === null || Date.parse(record.expiresAt) > now);
}

/**
 * Finds who presents a credential: the bootstrap `WADDLE_TOKEN`, a stored API key (scrypt-verified once,
 * then matched by a SHA-256 digest in constant time and its record re-read at most every second), or
 * nobody. Without a token and with no active key, a request without any credential is the local user.
 */
export class Authenticator {
  private readonly verified = new Map<string, Verified>();
  private keysExist: { value: boolean; readAt: number } | undefined;
  private readonly now: () => number;

  constructor(private readonly options: { keys: ApiKeyStore; token?: string; now?: () => number }) {
    this.now = options.now ?? Date.now;
  }

  get tokenSet(): boolean {
    return this.options.token !== undefined;
  }

  /** True when sign-in is needed: a token is set or an active key exists. */
  async isRequired(): Promise<boolean> {
    return this.options.token !== undefined || (await this.hasActiveKeys());
  }

  /** The actor behind a presented credential, or undefined for any bad or missing one. */
  async authenticate(presented: string | undefined): Promise<Actor | undefined> {
    // A publishable key or visitor token opens its public chat's routes only (server/src/public), never
    // these, not even on a server that needs no sign-in. AG-UI checks publishable keys before this.
    if (presented !== undefined && isPublicCredential(presented)) return undefined;
    // As before keys: without a token and any active key, whatever a client sends (openai-node always
    // sends some API key) is the local user.
    if (!(await this.isRequired())) return LOCAL_ACTOR;
    if (presented === undefined) return undefined;
    const { token } = this.options;
    if (token !== undefined && checkToken(token, presented)) return TOKEN_ACTOR;
    const parsed = parseApiKey(presented);
    if (!parsed) return undefined;
    const now = this.now();
    const digest = sha256(parsed.secret);
    let entry = this.verified.get(parsed.id);
    if (entry && !timingSafeEqual(entry.digest, digest)) entry = undefined;
    if (entry && now - entry.readAt > RECHECK_MS) {
      const record = await this.options.keys.get(parsed.id);
      if (!record || record.hash !== entry.record.hash) entry = undefined;
      else Object.assign(entry, { record, readAt: now });
    }
    if (!entry) {
      const record = await this.options.keys.get(parsed.id);
      // A key that does not exist costs as much as one that does: no timing tells them apart.
      const ok = await verifySecret(parsed.secret, record?.hash ?? DUMMY_HASH);
      if (!record || !ok) return undefined;
      entry = { digest, record, readAt: now, touchedAt: 0 };
      this.verified.set(parsed.id, entry);
    }
    if (!isActive(entry.record, now)) return undefined;
    if (now - entry.touchedAt > TOUCH_EVERY_MS) {
      entry.touchedAt = now;
      void this.options.keys.touch(parsed.id, new Date(now).toISOString()).catch(() => undefined);
    }
    return toKeyActor(entry.record);
  }

  /** Forgets what is known about keys (one revoked or created here or on another instance). */
  invalidate(keyId?: string): void {
    if (keyId === undefined) this.verified.clear();
    else this.verified.delete(keyId);
    this.keysExist = undefined;
  }

  private async hasActiveKeys(): Promise<boolean> {
    const now = this.now();
    if (this.keysExist && now - this.keysExist.readAt <= RECHECK_MS) return this.keysExist.value;
    const value = (await this.options.keys.list()).some((record) => isActive(record, now));
    this.keysExist = { value, readAt: now };
    return value;
  }
}

/** Verified against when the key id is unknown, so that an unknown key takes as long as a wrong one. */
const DUMMY_HASH = "scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
