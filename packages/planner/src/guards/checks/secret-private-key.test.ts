import { describe, expect, it } from "vitest";
import { findPrivateKeys, PRIVATE_KEY_MAX_BODY } from "./secret-private-key.js";

const found = (text: string) => findPrivateKeys(text).map((span) => text.slice(span.start, span.end));

describe("findPrivateKeys", () => {
  it("finds several blocks, each from its BEGIN to its own END", () => {
    const first = "-----BEGIN EC PRIVATE KEY-----\nAAAA\n-----END EC PRIVATE KEY-----";
    const second = "-----BEGIN PGP PRIVATE KEY BLOCK-----\nBBBB\n-----END PGP PRIVATE KEY BLOCK-----";
    expect(found(`${first}\ntext\n${second}`)).toEqual([first, second]);
  });

  it("reads JSON-escaped line breaks as part of the block", () => {
    const escaped = "-----BEGIN PRIVATE KEY-----\\nMIIEvQ\\n-----END PRIVATE KEY-----";
    expect(found(`{"key":"${escaped}"}`)).toEqual([escaped]);
  });

  it("takes at most 8 KB of body when the END line is missing or too far", () => {
    const header = "-----BEGIN PRIVATE KEY-----";
    const spans = found(`${header}${"A".repeat(20_000)}`);
    expect(spans).toEqual([`${header}${"A".repeat(PRIVATE_KEY_MAX_BODY)}`]);
  });

  it("stays linear on a run of headers without END lines: each block is consumed once", () => {
    const text = "-----BEGIN PRIVATE KEY-----!".repeat(10_000);
    expect(findPrivateKeys(text).length).toBe(10_000);
  });
});
