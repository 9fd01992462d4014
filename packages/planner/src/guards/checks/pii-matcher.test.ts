import { describe, expect, it } from "vitest";
import { createPiiMatcher } from "./pii-matcher.js";
import { applyMasks } from "./text-matcher.js";

const TEXT =
  "Ana (ana@example.com, +44 20 7946 0958) paid with 4111 1111 1111 1111 from DE89 3704 0044 0532 0130 00.";

describe("createPiiMatcher", () => {
  it("finds each type and masks it with its own mask", () => {
    const matcher = createPiiMatcher();
    const spans = matcher.findSpans(TEXT);
    expect(spans.map((span) => span.kind)).toEqual(["email", "phone", "card", "iban"]);
    expect(applyMasks(TEXT, spans, matcher)).toBe("Ana ([email], [phone]) paid with [card] from [iban].");
  });

  it("keeps to the types asked for", () => {
    const matcher = createPiiMatcher(["card", "email"]);
    expect(applyMasks(TEXT, matcher.findSpans(TEXT), matcher)).toBe(
      "Ana ([email], +44 20 7946 0958) paid with [card] from DE89 3704 0044 0532 0130 00.",
    );
  });

  it("keeps the more specific rule's span where two overlap: an address made of a card's digits is an email", () => {
    const matcher = createPiiMatcher();
    const text = "4111111111111111@example.com";
    expect(matcher.findSpans(text)).toEqual([{ start: 0, end: text.length, kind: "email" }]);
    expect(createPiiMatcher(["card"]).findSpans(text)).toEqual([{ start: 0, end: 16, kind: "card" }]);
  });
});
