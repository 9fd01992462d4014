import { createHmac, timingSafeEqual } from "node:crypto";
import { SIGNATURE_TOLERANCE_S } from "@waddle/protocol";

/**
 * The `Waddle-Signature` header: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`.
 * Outgoing notifications are signed with `signPayload`; incoming `hmac` webhook triggers are checked with
 * `verifySignature`, so both sides of the format live here.
 */

/** The hex HMAC-SHA256 of `"<t>.<raw body>"` under `secret`. */
export function getSignatureDigest(options: {
  secret: string;
  timestampS: number;
  body: string | Buffer;
}): string {
  return createHmac("sha256", options.secret)
    .update(`${options.timestampS}.`, "utf8")
    .update(options.body)
    .digest("hex");
}

/** The header value for `body` signed at `nowMs` (default: now). */
export function signPayload(options: { secret: string; body: string | Buffer; nowMs?: number }): string {
  const timestampS = Math.floor((options.nowMs ?? Date.now()) / 1000);
  return `t=${timestampS},v1=${getSignatureDigest({ secret: options.secret, timestampS, body: options.body })}`;
}

/** Why a signature was refused; a caller answers every kind alike (401 with one body). */
export type SignatureFailure = "missing" | "malformed" | "expired" | "mismatch";

export type SignatureCheck = { ok: true; timestampS: number } | { ok: false; reason: SignatureFailure };

/**
 * Checks a `Waddle-Signature` header against the raw body: the timestamp must lie within `toleranceS`
 * (default `SIGNATURE_TOLERANCE_S`) of `nowMs`, and one of its `v1=` digests must match (a sender rotating
 * its secret may send two). Compares in constant time.
 */
export function verifySignature(options: {
  secret: string;
  header: string | undefined;
  /** The raw body as received (bytes or text), never a re-serialized parse. */
  body: string | Buffer;
  nowMs?: number;
  toleranceS?: number;
}): SignatureCheck {
  if (!options.header) return { ok: false, reason: "missing" };
  let timestampS: number | undefined;
  const digests: string[] = [];
  for (const part of options.header.split(",")) {
    const at = part.indexOf("=");
    if (at < 0) continue;
    const key = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    if (key === "t" && /^\d{1,12}$/.test(value)) timestampS = Number(value);
    else if (key === "v1" && /^[0-9a-f]{64}$/i.test(value)) digests.push(value.toLowerCase());
  }
  if (timestampS === undefined || digests.length === 0) return { ok: false, reason: "malformed" };
  const nowS = (options.nowMs ?? Date.now()) / 1000;
  if (Math.abs(nowS - timestampS) > (options.toleranceS ?? SIGNATURE_TOLERANCE_S)) {
    return { ok: false, reason: "expired" };
  }
  const expected = Buffer.from(
    getSignatureDigest({ secret: options.secret, timestampS, body: options.body }),
    "hex",
  );
  const matches = digests.some((digest) => timingSafeEqual(Buffer.from(digest, "hex"), expected));
  return matches ? { ok: true, timestampS } : { ok: false, reason: "mismatch" };
}
