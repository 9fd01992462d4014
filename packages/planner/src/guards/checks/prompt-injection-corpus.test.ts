import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { isAnchor } from "./injection-anchors.js";
import { INJECTION_RULES } from "./injection-rules.js";
import { findInjections, scoreSentences } from "./prompt-injection-matcher.js";

const CORPUS_FILE = new URL(
  "../../../../../test/fixtures/guards/prompt-injection-corpus.json",
  import.meta.url,
);

const Corpus = z.strictObject({
  version: z.literal(1),
  items: z.array(
    z.strictObject({ id: z.string().min(1), label: z.enum(["injected", "clean"]), text: z.string().min(1) }),
  ),
});

const corpus = Corpus.parse(JSON.parse(readFileSync(CORPUS_FILE, "utf8")));
const injected = corpus.items.filter((item) => item.label === "injected");
const clean = corpus.items.filter((item) => item.label === "clean");

// Quality floors of the rule set on the committed corpus (issue 35), not timings. The corpus was written
// while the rules were tuned; held-out rates are lower (test/fixtures/guards/README.md).
describe("the prompt-injection corpus", () => {
  it("has at least 60 injected and 60 clean items with unique ids", () => {
    expect(injected.length).toBeGreaterThanOrEqual(60);
    expect(clean.length).toBeGreaterThanOrEqual(60);
    expect(new Set(corpus.items.map((item) => item.id)).size).toBe(corpus.items.length);
  });

  it("is detected at a rate of at least 0.9, with a false-positive rate of at most 0.05", () => {
    const detected = injected.filter((item) => findInjections(item.text).length > 0).length;
    const falsePositives = clean
      .filter((item) => findInjections(item.text).length > 0)
      .map((item) => item.id);
    expect(detected / injected.length).toBeGreaterThanOrEqual(0.9);
    expect(falsePositives.length / clean.length, falsePositives.join(", ")).toBeLessThanOrEqual(0.05);
  });

  it("never skips a rule that would match: every match starts at one of its rule's starts", () => {
    for (const item of corpus.items) {
      const lower = item.text.toLowerCase();
      for (const rule of INJECTION_RULES) {
        rule.pattern.lastIndex = 0;
        for (const match of item.text.matchAll(rule.pattern)) {
          expect(isAnchor(lower, match.index, rule), `${rule.id} on ${item.id}`).toBe(true);
        }
      }
    }
  });

  it("finds, rule by rule from their starts, what every rule finds over the whole text", () => {
    const all = { id: "all items in one text", text: corpus.items.map((item) => item.text).join("\n") };
    for (const item of [...corpus.items, all]) {
      const summary = (everywhere: boolean) =>
        scoreSentences(item.text, { everywhere }).map((sentence) => [
          sentence.start,
          sentence.end,
          [...sentence.rules].sort(),
        ]);
      expect(summary(false), item.id).toEqual(summary(true));
    }
  });
});
