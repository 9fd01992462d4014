import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { signPayload, verifySignature } from "./signature.js";

const secret = "whsec_0123456789abcdef";
const body = '{"id":"ntf_1","type":"run.finished"}';
const nowMs = 1_750_000_000_000;

describe("Waddle-Signature", () => {
  it("signs t=<seconds>,v1=<hex HMAC-SHA256 of '<t>.<raw body>'>", () => {
    const header = signPayload({ secret, body, nowMs });
    const expected = createHmac("sha256", secret).update(`1750000000.${body}`).digest("hex");
    expect(header).toBe(`t=1750000000,v1=${expected}`);
  });

  it("verifies its own signature, from a string or the same bytes", () => {
    const header = signPayload({ secret, body, nowMs });
    expect(verifySignature({ secret, header, body, nowMs })).toEqual({ ok: true, timestampS: 1750000000 });
    expect(verifySignature({ secret, header, body: Buffer.from(body), nowMs }).ok).toBe(true);
  });

  it("refuses another secret, an altered body, a missing or malformed header", () => {
    const header = signPayload({ secret, body, nowMs });
    expect(verifySignature({ secret: "another-secret-xyz", header, body, nowMs })).toEqual({
      ok: false,
      reason: "mismatch",
    });
    expect(verifySignature({ secret, header, body: body + " ", nowMs })).toMatchObject({
      reason: "mismatch",
    });
    expect(verifySignature({ secret, header: undefined, body, nowMs })).toMatchObject({ reason: "missing" });
    expect(verifySignature({ secret, header: "v1=abc", body, nowMs })).toMatchObject({ reason: "malformed" });
    expect(verifySignature({ secret, header: "t=1750000000", body, nowMs })).toMatchObject({
      reason: "malformed",
    });
  });

  it("refuses a timestamp outside the tolerance (a replay), either way", () => {
    const header = signPayload({ secret, body, nowMs });
    expect(verifySignature({ secret, header, body, nowMs: nowMs + 300_000 }).ok).toBe(true);
    expect(verifySignature({ secret, header, body, nowMs: nowMs + 301_000 })).toMatchObject({
      reason: "expired",
    });
    expect(verifySignature({ secret, header, body, nowMs: nowMs - 301_000 })).toMatchObject({
      reason: "expired",
    });
  });

  it("accepts any one of several v1 digests (a rotated secret)", () => {
    const old = signPayload({ secret: "the-old-secret-abcdef", body, nowMs });
    const fresh = signPayload({ secret, body, nowMs });
    const header = `${fresh},v1=${old.split("v1=")[1]}`;
    expect(verifySignature({ secret: "the-old-secret-abcdef", header, body, nowMs }).ok).toBe(true);
    expect(verifySignature({ secret, header, body, nowMs }).ok).toBe(true);
  });
});
