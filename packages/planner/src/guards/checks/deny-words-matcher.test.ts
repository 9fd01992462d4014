import { describe, expect, it } from "vitest";
import { createDenyWordsMatcher } from "./deny-words-matcher.js";
import { GuardCheckError } from "./guard-check-error.js";
import { applyMasks } from "./text-matcher.js";

const redact = (options: Parameters<typeof createDenyWordsMatcher>[0], text: string) => {
  const matcher = createDenyWordsMatcher(options);
  const spans = matcher.findSpans(text);
  expect(spans.every((span) => span.kind === "word")).toBe(true);
  return applyMasks(text, spans, matcher);
};

describe("createDenyWordsMatcher", () => {
  it("matches whole words only, ignoring case by default", () => {
    expect(redact({ words: ["acme"] }, "Acme and ACME, not acmes or Pacme or acme_x; (acme).")).toBe(
      "[redacted] and [redacted], not acmes or Pacme or acme_x; ([redacted]).",
    );
  });

  it("matches whole words in any script, and words that end in a symbol", () => {
    expect(redact({ words: ["Müller", "c++"] }, "Herr Müller, Müllers, c++ and c++11")).toBe(
      "Herr [redacted], Müllers, [redacted] and [redacted]11",
    );
    expect(redact({ words: ["café"] }, "Café cafés")).toBe("[redacted] cafés");
  });

  it("honours caseSensitive", () => {
    expect(redact({ words: ["Secret"], caseSensitive: true }, "Secret secret SECRET")).toBe(
      "[redacted] secret SECRET",
    );
  });

  it("prefers the longest of overlapping words and escapes regex characters in plain words", () => {
    expect(redact({ words: ["credit", "credit card"] }, "credit card, credit")).toBe(
      "[redacted], [redacted]",
    );
    expect(redact({ words: ["a.b", "(x)"] }, "a.b axb (x) x")).toBe("[redacted] axb [redacted] x");
  });

  it("runs regexes with the u flag, and i unless case-sensitive", () => {
    expect(
      redact({ words: ["proj-\\d{3}", "\\p{Nd}{4}"], regex: true }, "PROJ-123 and proj-9 and ٢٠٢٦"),
    ).toBe("[redacted] and proj-9 and [redacted]");
    expect(redact({ words: ["proj-\\d{3}"], regex: true, caseSensitive: true }, "PROJ-123 proj-456")).toBe(
      "PROJ-123 [redacted]",
    );
  });

  it("skips empty matches and keeps the first of overlapping regex matches", () => {
    expect(redact({ words: ["x*", "ab", "abc"], regex: true }, "abc xx")).toBe("[redacted] [redacted]");
  });

  it("caps the matches a window keeps", () => {
    const matcher = createDenyWordsMatcher({ words: ["."], regex: true });
    expect(matcher.findSpans("x".repeat(50_000)).length).toBe(10_000);
  });

  it("refuses a regex that does not compile with the u flag, naming the word", () => {
    expect(() => createDenyWordsMatcher({ words: ["ok", "\\p{Nope}"], regex: true })).toThrow(
      GuardCheckError,
    );
    expect(() => createDenyWordsMatcher({ words: ["ok", "(unclosed"], regex: true })).toThrow(
      /deny_words word 2 is not a valid regular expression/,
    );
    expect(() => createDenyWordsMatcher({ words: ["(unclosed"] })).not.toThrow();
  });
});
