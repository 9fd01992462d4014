import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";

/** The scrypt cost of a stored key hash: N=2^14, r=8, p=1 (OWASP's floor for scrypt), 32-byte output. */
const SCRYPT = { N: 16_384, r: 8, p: 1 } as const;
const HASH_BYTES = 32;

/** `wdl_<id>_<secret>`: a 12-character lookup id and 43 url-safe random characters (256 bits). */
const KEY_PATTERN = /^wdl_([A-Za-z0-9]{12})_([A-Za-z0-9_-]{43})$/;

export interface NewApiKey {
  id: string;
  /** The whole key, shown once. */
  key: string;
  secret: string;
}

/** A new key: its lookup id and its secret, both from the OS's random source. */
export function generateApiKey(): NewApiKey {
  const id = randomBytes(12).toString("base64url").replace(/[-_]/g, "").padEnd(12, "0").slice(0, 12);
  const secret = randomBytes(32).toString("base64url");
  return { id, secret, key: `wdl_${id}_${secret}` };
}

/** The lookup id and secret of a presented key, or undefined when it is not shaped as a key. */
export function parseApiKey(presented: string): { id: string; secret: string } | undefined {
  const match = KEY_PATTERN.exec(presented);
  return match ? { id: match[1]!, secret: match[2]! } : undefined;
}

function scryptAsync(secret: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(secret, salt, HASH_BYTES, options, (error, derived) => (error ? reject(error) : resolve(derived))),
  );
}

/** The stored form of a secret: `scrypt$N$r$p$<salt>$<hash>` with a fresh 16-byte salt. */
export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(secret, salt, SCRYPT);
  return [
    "scrypt",
    SCRYPT.N,
    SCRYPT.r,
    SCRYPT.p,
    salt.toString("base64url"),
    hash.toString("base64url"),
  ].join("$");
}

/** True when the secret matches the stored hash; the comparison runs in constant time. */
export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64url");
  const derived = await scryptAsync(secret, Buffer.from(salt, "base64url"), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return derived.length === expected.length && timingSafeEqual(derived, expected);
}
