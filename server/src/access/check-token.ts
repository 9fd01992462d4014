import { createHash, timingSafeEqual } from "node:crypto";

/** Compares a presented token with the expected one in constant time (hashes first, so lengths never leak). */
export function checkToken(expected: string, presented: string | undefined): boolean {
  if (presented === undefined) return false;
  const digest = (value: string) => createHash("sha256").update(value, "utf8").digest();
  return timingSafeEqual(digest(expected), digest(presented));
}

/** The token of an `Authorization: Bearer <token>` header. */
export function getBearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  return match?.[1];
}
