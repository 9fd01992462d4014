import { StreamRedactor } from "@waddle/planner";
import { describe, expect, it } from "vitest";
import { SecretRedactor } from "./secret-redactor.js";

describe("SecretRedactor", () => {
  it("replaces a secret that contains another whole, and ignores values too short to be safe", () => {
    const redactor = new SecretRedactor(["sk-live", "sk-live-123456", "short"]);
    expect(redactor.redactText("a sk-live-123456 b sk-live c short")).toBe(
      "a [redacted] b [redacted] c short",
    );
  });

  it("redacts JSON values and keys deeply, and returns the value itself when it holds no secret", () => {
    const redactor = new SecretRedactor(["sk-live-123456"]).with(["context-secret"]);
    const clean = { a: [1, "plain"] };
    expect(redactor.redact(clean)).toBe(clean);
    expect(redactor.redact({ "sk-live-123456": ["Bearer context-secret"] })).toEqual({
      "[redacted]": ["Bearer [redacted]"],
    });
    expect(new SecretRedactor([]).isEmpty).toBe(true);
  });

  it("is a TextRedactor: the planner's StreamRedactor catches a secret split across pieces", () => {
    const stream = new StreamRedactor(new SecretRedactor(["sk-live-123456"]));
    const shown =
      ["key sk-li", "ve-12", "3456."].map((piece) => stream.push(piece)).join("") + stream.flush();
    expect(shown).toBe("key [redacted].");
  });

  it("knows stored credentials as soon as they are set, in redactors made from it before too", () => {
    const redactor = new SecretRedactor(["env-secret-1"]);
    const forRun = redactor.with(["context-secret"]);
    expect(forRun.redactText("stored-value-42")).toBe("stored-value-42");
    redactor.setStoredSecrets(["stored-value-42"]);
    expect(forRun.redactText("a stored-value-42 env-secret-1 context-secret")).toBe(
      "a [redacted] [redacted] [redacted]",
    );
    redactor.setStoredSecrets([]);
    expect(forRun.redact({ key: "stored-value-42" })).toEqual({ key: "stored-value-42" });
  });
});
