import { createHash, timingSafeEqual } from "node:crypto";
import { verifySignature } from "../notifications/signature.js";
import { ApiError } from "../shared/api-error.js";

/** The one answer to every refused delivery: nothing tells a wrong signature from a stale or missing one. */
export function hookUnauthorized(): ApiError {
  return new ApiError(
    "unauthorized",
    "The request is not signed or authorized for this trigger: send Waddle-Signature (hmac) or Authorization: Bearer (bearer) made with the trigger's secret, within 5 minutes of its timestamp.",
  );
}

const sha256 = (value: string) => createHash("sha256").update(value, "utf8").digest();

/** A delivery's credentials, as the request carries them. */
export interface HookCredentials {
  signature: string | undefined;
  authorization: string | undefined;
  /** The raw body, exactly as received. */
  body: Buffer;
}

/**
 * True when a delivery proves the trigger's secret: `hmac`, a `Waddle-Signature` over `"<t>.<raw body>"`
 * with `t` within ±5 minutes of now; `bearer`, `Authorization: Bearer <secret>`. Compared in constant time.
 */
export function isHookAuthorized(options: {
  secretMode: "hmac" | "bearer";
  secret: string;
  credentials: HookCredentials;
  nowMs?: number;
}): boolean {
  const { secret, credentials } = options;
  if (options.secretMode === "hmac") {
    return verifySignature({
      secret,
      header: credentials.signature,
      body: credentials.body,
      ...(options.nowMs === undefined ? {} : { nowMs: options.nowMs }),
    }).ok;
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(credentials.authorization ?? "");
  // Digests of equal length: the comparison takes as long whatever was sent.
  return match?.[1] !== undefined && timingSafeEqual(sha256(match[1]), sha256(secret));
}
