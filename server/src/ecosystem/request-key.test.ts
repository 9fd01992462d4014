import { describe, expect, it } from "vitest";
import { isApiError } from "../shared/api-error.js";
import { CLIENT_RETRY_TTL_MS, getRequestKey, IDEMPOTENCY_KEY_TTL_MS } from "./request-key.js";

const body = { model: "support-triage", messages: [{ role: "user", content: "hi" }] };
const endpoint = "v1/chat/completions";

describe("getRequestKey", () => {
  it("is undefined when the client sent neither a key nor a retry count", () => {
    expect(getRequestKey({ endpoint, headers: { authorization: "Bearer t" }, body })).toBeUndefined();
  });

  it("keys by Idempotency-Key, scoped by endpoint and credential, with the body's fingerprint", () => {
    const key = getRequestKey({ endpoint, headers: { "idempotency-key": "abc-123" }, body });
    expect(key).toMatchObject({
      key: "idempotency:abc-123",
      kind: "idempotency",
      ttlMs: IDEMPOTENCY_KEY_TTL_MS,
      isRetry: false,
    });
    const other = (headers: Record<string, string>, otherBody: unknown = body) =>
      getRequestKey({ endpoint, headers: { "idempotency-key": "abc-123", ...headers }, body: otherBody });
    expect(other({ authorization: "Bearer another" })?.scope).not.toBe(key?.scope);
    expect(
      getRequestKey({ endpoint: "mcp/tools/call", headers: { "idempotency-key": "abc-123" }, body })?.scope,
    ).not.toBe(key?.scope);
    expect(other({})?.fingerprint).toBe(key?.fingerprint);
    expect(other({}, { ...body, stream: true })?.fingerprint).not.toBe(key?.fingerprint);
    expect(getRequestKey({ endpoint, headers: { "x-idempotency-key": "abc-123" }, body })?.key).toBe(
      "idempotency:abc-123",
    );
  });

  it("keys a retry the client announces (x-stainless-retry-count) by the body's fingerprint", () => {
    const first = getRequestKey({ endpoint, headers: { "x-stainless-retry-count": "0" }, body });
    const retry = getRequestKey({ endpoint, headers: { "x-stainless-retry-count": "2" }, body });
    expect(first).toMatchObject({ kind: "client_retry", isRetry: false, ttlMs: CLIENT_RETRY_TTL_MS });
    expect(retry).toMatchObject({ kind: "client_retry", isRetry: true, key: first?.key });
    expect(first?.key).toBe(`retry:${first?.fingerprint}`);
    const keyed = getRequestKey({
      endpoint,
      headers: { "x-stainless-retry-count": "1", "idempotency-key": "k" },
      body,
    });
    expect(keyed).toMatchObject({ kind: "idempotency", isRetry: true });
  });

  it("refuses a malformed key with a 400 naming the header", () => {
    for (const bad of ["", "has space", "x".repeat(256), "naïve"]) {
      let caught: unknown;
      try {
        getRequestKey({ endpoint, headers: { "idempotency-key": bad }, body });
      } catch (error) {
        caught = error;
      }
      // An empty header is no key at all only when absent: an empty value is refused too.
      expect(isApiError(caught, "bad_request"), JSON.stringify(bad)).toBe(true);
    }
  });
});
