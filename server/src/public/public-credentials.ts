import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** A publishable key: `wpk_<12-character lookup id>_<43 url-safe random characters>` (256 bits). */
const KEY_PATTERN = /^wpk_([A-Za-z0-9]{12})_([A-Za-z0-9_-]{43})$/;
/** A visitor token: `wpv_<visitor id, 32 hex>_<HMAC-SHA256 of the chat and visitor, base64url>`. */
const TOKEN_PATTERN = /^wpv_([0-9a-f]{32})_([A-Za-z0-9_-]{43})$/;

/** The prefixes live with the authenticator, which refuses both on every other route. */
export { isPublicCredential } from "../access/public-credential-prefixes.js";

const lookupId = () =>
  randomBytes(12).toString("base64url").replace(/[-_]/g, "").padEnd(12, "0").slice(0, 12);

/** A new publishable key and its lookup id, from the OS's random source. */
export function generatePublishableKey(): { keyId: string; key: string } {
  const keyId = lookupId();
  return { keyId, key: `wpk_${keyId}_${randomBytes(32).toString("base64url")}` };
}

/** The lookup id of a presented publishable key, or undefined when it is not shaped as one. */
export function parsePublishableKey(presented: string): { keyId: string } | undefined {
  const match = KEY_PATTERN.exec(presented);
  return match ? { keyId: match[1]! } : undefined;
}

/** True when two keys are the same, compared in constant time. */
export function isSameKey(presented: string, stored: string): boolean {
  const digest = (value: string) => createHash("sha256").update(value, "utf8").digest();
  return timingSafeEqual(digest(presented), digest(stored));
}

/** A chat's public id: random, never derived from the agent. */
export function createPublicId(): string {
  return `pub_${randomBytes(10).toString("hex")}`;
}

/** A chat's secret for signing visitor tokens (32 random bytes, base64url). */
export function createVisitorSecret(): string {
  return randomBytes(32).toString("base64url");
}

const sign = (secret: string, publicId: string, visitorId: string) =>
  createHmac("sha256", Buffer.from(secret, "base64url"))
    .update(`${publicId}.${visitorId}`, "utf8")
    .digest("base64url");

/** A new anonymous visitor of a chat and their token (signed, long-lived: it has no expiry). */
export function createVisitorToken(secret: string, publicId: string): { visitorId: string; token: string } {
  const visitorId = randomBytes(16).toString("hex");
  return { visitorId, token: `wpv_${visitorId}_${sign(secret, publicId, visitorId)}` };
}

/** The visitor a token names, when it was signed for this chat with its secret; undefined otherwise. */
export function readVisitorToken(secret: string, publicId: string, token: string): string | undefined {
  const match = TOKEN_PATTERN.exec(token);
  if (!match) return undefined;
  const visitorId = match[1]!;
  const expected = Buffer.from(sign(secret, publicId, visitorId));
  const presented = Buffer.from(match[2]!);
  return presented.length === expected.length && timingSafeEqual(presented, expected) ? visitorId : undefined;
}
