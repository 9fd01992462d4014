import { describe, expect, it } from "vitest";
import { collectSecretStrings, scrubSecrets } from "./secret-scrubber.js";

describe("collectSecretStrings", () => {
  it("collects nested strings of plain objects and arrays, not of class instances", () => {
    class Client {
      token = "inside-a-class";
    }
    const secrets = collectSecretStrings({
      apiKey: "sk-1",
      nested: { list: ["a-token", ""] },
      client: new Client(),
      n: 5,
    });
    expect([...secrets].sort()).toEqual(["a-token", "sk-1"]);
    expect(collectSecretStrings(undefined).size).toBe(0);
  });
});

describe("scrubSecrets", () => {
  const secrets = new Set(["sk-live-123456", "id7"]);

  it("replaces secrets deeply and copies only what changed", () => {
    const clean = { a: { b: [1, "plain"] } };
    const value = { clean, key: "sk-live-123456", list: ["Bearer sk-live-123456", "id7", "id77"] };
    const scrubbed = scrubSecrets(value, secrets);
    expect(scrubbed).toEqual({ clean, key: "[redacted]", list: ["Bearer [redacted]", "[redacted]", "id77"] });
    expect(scrubbed.clean).toBe(clean);
    expect(value.key).toBe("sk-live-123456");
  });

  it("returns the same reference when there is nothing to hide", () => {
    const value = { a: 1 };
    expect(scrubSecrets(value, secrets)).toBe(value);
    expect(scrubSecrets(value, new Set())).toBe(value);
  });
});
