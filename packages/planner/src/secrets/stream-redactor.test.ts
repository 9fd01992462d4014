import { describe, expect, it } from "vitest";
import { StreamRedactor } from "./stream-redactor.js";

function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let index = 0; index < text.length; index += size) out.push(text.slice(index, index + size));
  return out;
}

describe("StreamRedactor", () => {
  it("catches a secret split across pieces, whatever the piece size", () => {
    const text = "key=sk-live-123456 and again sk-live-123456.";
    for (const size of [1, 2, 3, 5, 8, 100]) {
      const redactor = new StreamRedactor(new Set(["sk-live-123456"]));
      const shown =
        pieces(text, size)
          .map((piece) => redactor.push(piece))
          .join("") + redactor.flush();
      expect(shown).toBe("key=[redacted] and again [redacted].");
    }
  });

  it("holds back only what could start a secret, and passes text through without secrets", () => {
    const redactor = new StreamRedactor(new Set(["secret"]));
    expect(redactor.push("a sec")).toBe("a ");
    expect(redactor.push("ond")).toBe("second");
    expect(redactor.flush()).toBe("");
    expect(new StreamRedactor(new Set()).push("anything")).toBe("anything");
  });
});
