import { describe, expect, it } from "vitest";
import { createTextRedactor, StreamRedactor } from "./stream-redactor.js";

function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let index = 0; index < text.length; index += size) out.push(text.slice(index, index + size));
  return out;
}

describe("StreamRedactor", () => {
  it("catches a secret split across pieces, whatever the piece size", () => {
    const text = "key=sk-live-123456 and again sk-live-123456.";
    for (const size of [1, 2, 3, 5, 8, 100]) {
      const redactor = new StreamRedactor(createTextRedactor(new Set(["sk-live-123456"])));
      const shown =
        pieces(text, size)
          .map((piece) => redactor.push(piece))
          .join("") + redactor.flush();
      expect(shown).toBe("key=[redacted] and again [redacted].");
    }
  });

  it("holds back only what could start a secret, and passes text through without secrets", () => {
    const redactor = new StreamRedactor(createTextRedactor(new Set(["secret"])));
    expect(redactor.push("a sec")).toBe("a ");
    expect(redactor.push("ond")).toBe("second");
    expect(redactor.flush()).toBe("");
    expect(new StreamRedactor(createTextRedactor(new Set())).push("anything")).toBe("anything");
  });

  it("works with a host's own redactor, and releases held text redacted at the end", () => {
    const host = {
      redactText: (text: string) => text.split("hunter22").join("***"),
      getPartialSecretLength: (text: string) => (text.endsWith("hun") ? 3 : 0),
    };
    const redactor = new StreamRedactor(host);
    expect(redactor.push("pw hunter22, then hun")).toBe("pw ***, then ");
    expect(redactor.flush()).toBe("hun");
  });
});
