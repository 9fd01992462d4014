import { createHash } from "node:crypto";
import { ApiError } from "../shared/api-error.js";

/** Headers, as express and the MCP SDK give them: lower-case names, a value or several. */
export type RequestHeaders = Readonly<Record<string, string | readonly string[] | undefined>>;

/**
 * A request that a client may send again, and how to know it: by the `Idempotency-Key` it carries, or,
 * when a client only says that it is retrying (`x-stainless-retry-count`, sent by the official OpenAI
 * SDKs), by its fingerprint.
 */
export interface RequestKey {
  scope: string;
  key: string;
  fingerprint: string;
  ttlMs: number;
  kind: "idempotency" | "client_retry";
  /** The client says this is a retry of an earlier attempt (`x-stainless-retry-count` over 0). */
  isRetry: boolean;
}

/** How long an `Idempotency-Key` answers from its run: a day, as payment APIs keep theirs. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;
/** How long a client's retry finds its first attempt by fingerprint: longer than any SDK's backoff. */
export const CLIENT_RETRY_TTL_MS = 10 * 60 * 1000;

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/**
 * The request's key for `endpoint` (e.g. `v1/chat/completions`), or undefined when the client sent neither
 * an `Idempotency-Key` nor a retry count. The scope holds the endpoint and a hash of the caller's
 * credential, so that two callers never answer from each other's runs. A malformed key is a 400.
 */
export function getRequestKey(options: {
  endpoint: string;
  headers: RequestHeaders;
  body: unknown;
}): RequestKey | undefined {
  const { headers } = options;
  const idempotencyKey = getHeader(headers, "idempotency-key") ?? getHeader(headers, "x-idempotency-key");
  const retryCount = getHeader(headers, "x-stainless-retry-count");
  if (idempotencyKey === undefined && retryCount === undefined) return undefined;
  const scope = `${options.endpoint}:${hash(getHeader(headers, "authorization") ?? "").slice(0, 32)}`;
  const fingerprint = hash(JSON.stringify(options.body) ?? "");
  const isRetry = retryCount !== undefined && /^\d+$/.test(retryCount) && Number(retryCount) > 0;
  if (idempotencyKey !== undefined) {
    if (!KEY_PATTERN.test(idempotencyKey)) {
      throw new ApiError(
        "bad_request",
        "Idempotency-Key must be 1 to 255 visible ASCII characters (a UUID is a good key).",
        { param: "Idempotency-Key" },
      );
    }
    const key = `idempotency:${idempotencyKey}`;
    return { scope, key, fingerprint, ttlMs: IDEMPOTENCY_KEY_TTL_MS, kind: "idempotency", isRetry };
  }
  const key = `retry:${fingerprint}`;
  return { scope, key, fingerprint, ttlMs: CLIENT_RETRY_TTL_MS, kind: "client_retry", isRetry };
}

function getHeader(headers: RequestHeaders, name: string): string | undefined {
  const value = headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === "string" ? first.trim() : undefined;
}

function hash(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
