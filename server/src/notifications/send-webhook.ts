import { SIGNATURE_HEADER } from "@waddle/protocol";
import type { HostAllowList } from "../tools/host-allow-list.js";
import { requestPinned } from "../tools/pinned-request.js";
import { resolveAllowedAddress, systemLookup, type HostLookup } from "../tools/resolve-allowed-address.js";
import { isApiError } from "../shared/api-error.js";
import { parseRetryAfter, type AttemptResult } from "./retry-policy.js";

/** A target's answer is read this far, then dropped: only its status counts. */
const MAX_READ_BYTES = 64 * 1024;

/** One POST of a signed notification, and what it met. */
export interface SendOutcome {
  result: AttemptResult;
  /** From the request's start to the answer's status (or to the failure); null when nothing was sent. */
  latencyMs: number | null;
}

/**
 * POSTs `body` to `url` as the http tools call out: the host must pass the allow-list, the address it
 * resolves to must be public unless listed itself, and the connection goes to that checked address
 * (no DNS rebinding, no redirects followed). Gives up after `timeoutMs`, counted as a network error.
 */
export async function sendWebhook(options: {
  url: string;
  body: string;
  signature: string;
  headers: Readonly<Record<string, string>>;
  allowList: HostAllowList;
  timeoutMs: number;
  lookup?: HostLookup;
  /** Aborts the request (the server is closing): counted as a network error. */
  signal?: AbortSignal;
  now?: () => number;
}): Promise<SendOutcome> {
  const now = options.now ?? Date.now;
  const url = new URL(options.url);
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  const started = performance.now();
  let target;
  try {
    target = await resolveAllowedAddress(url, {
      allowList: options.allowList,
      lookup: options.lookup ?? systemLookup,
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // A name that does not resolve may resolve later; a host or address the allow-list refuses will not.
    if (isApiError(error, "http_error")) return { result: { kind: "network", message }, latencyMs: null };
    return { result: { kind: "refused", message }, latencyMs: null };
  }
  try {
    const response = await requestPinned(
      url,
      {
        method: "POST",
        headers: {
          ...options.headers,
          "content-type": "application/json",
          [SIGNATURE_HEADER.toLowerCase()]: options.signature,
        },
        body: options.body,
        signal,
      },
      target,
    );
    const latencyMs = performance.now() - started;
    await drain(response);
    const retryAfterMs = parseRetryAfter(response.headers.get("retry-after"), now());
    return {
      result: {
        kind: "response",
        status: response.status,
        ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      },
      latencyMs,
    };
  } catch (error) {
    const message = timeout.aborted
      ? `no answer within ${options.timeoutMs} ms`
      : error instanceof Error
        ? error.message
        : String(error);
    return { result: { kind: "network", message }, latencyMs: performance.now() - started };
  }
}

/** Reads up to `MAX_READ_BYTES` of the answer so that the connection is freed, then cancels the rest. */
async function drain(response: Response): Promise<void> {
  const reader = response.body?.getReader();
  if (!reader) return;
  let read = 0;
  try {
    while (read < MAX_READ_BYTES) {
      const chunk = await reader.read();
      if (chunk.done) return;
      read += chunk.value.byteLength;
    }
    await reader.cancel();
  } catch {
    // The status is what counts; a body cut short changes nothing.
  }
}
