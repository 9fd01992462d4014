import { describe, expect, it } from "vitest";
import { MALFORMED_CORPUS } from "./malformed-corpus.js";
import { runMalformedCase, summarizeCorpus, type CorpusResult } from "./malformed-corpus-runner.js";

describe("the malformed-reply corpus, through the real ReactPlanner", () => {
  const results: CorpusResult[] = [];

  it("has at least 80 cases with unique ids", () => {
    expect(MALFORMED_CORPUS.length).toBeGreaterThanOrEqual(80);
    expect(new Set(MALFORMED_CORPUS.map((item) => item.id)).size).toBe(MALFORMED_CORPUS.length);
  });

  it.each(MALFORMED_CORPUS.map((item) => [item.id, item] as const))("%s", async (_id, corpusCase) => {
    const result = await runMalformedCase(corpusCase);
    results.push(result);
    expect(result.failures, `${corpusCase.description}: ${JSON.stringify(result)}`).toEqual([]);
  });

  it("meets the goals: every answer kept, no placeholder run, no usable reply lost to no_path", () => {
    const summary = summarizeCorpus(MALFORMED_CORPUS, results);
    expect(summary.cases).toBe(MALFORMED_CORPUS.length);
    expect(summary.answersPreserved).toBe(summary.answersExpected);
    expect(summary.noPathWithUsable).toBe(0);
    expect(summary.placeholderRuns).toBe(0);
    expect(summary.meanExtraCalls).toBeLessThanOrEqual(0.3);
  });
});
