import { describe, expect, it } from "vitest";
import { getSignInNote } from "./get-sign-in-note.js";

const NOW = Date.parse("2030-01-01T00:00:00Z");

describe("getSignInNote", () => {
  it("says sign-in is needed when the server has a WADDLE_TOKEN, even with no key", () => {
    const note = getSignInNote({ kind: "token", keys: [], now: NOW });
    expect(note).toContain("has a WADDLE_TOKEN");
    expect(note).not.toContain("needs no sign-in");
  });

  it("says no sign-in is needed on 127.0.0.1 only for a server without token or active key", () => {
    expect(getSignInNote({ kind: "local", keys: [], now: NOW })).toContain(
      "needs no sign-in and listens on 127.0.0.1 only",
    );
    const revoked = { revokedAt: "2029-01-01T00:00:00Z", expiresAt: null };
    const expired = { revokedAt: null, expiresAt: "2029-06-01T00:00:00Z" };
    expect(getSignInNote({ kind: "local", keys: [revoked, expired], now: NOW })).toMatch(/^No active keys: /);
  });

  it("says nothing while a key is active", () => {
    const key = { revokedAt: null, expiresAt: "2031-01-01T00:00:00Z" };
    expect(getSignInNote({ kind: "token", keys: [key], now: NOW })).toBeNull();
  });
});
