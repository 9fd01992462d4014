import { findInjections } from "@waddle/planner/internal";
import { describe, expect, it } from "vitest";
import { collectExampleAgentTexts } from "./example-agent-texts.js";

describe("collectExampleAgentTexts", () => {
  const texts = collectExampleAgentTexts();

  it("reads queries, mock outputs, replies and answers of every example agent", () => {
    const sources = texts.map((text) => text.source);
    for (const agent of ["support-triage", "document-pipeline", "email-approval", "writing-review"]) {
      expect(
        sources.some((source) => source.startsWith(`${agent} `)),
        agent,
      ).toBe(true);
    }
    expect(sources.some((source) => source.endsWith("expected answer"))).toBe(true);
    expect(sources.some((source) => source.includes(" mock "))).toBe(true);
    expect(texts.length).toBeGreaterThan(100);
  });

  it("holds nothing the prompt-injection rules flag but what an example plants for its own guard", () => {
    const flagged = (text: { text: string }) => findInjections(text.text).length > 0;
    const ordinary = texts.filter((text) => !text.planted);
    expect(ordinary.filter(flagged).map((text) => text.source)).toEqual([]);
    const planted = texts.filter((text) => text.planted && /instruction|ignore/i.test(text.text));
    expect(planted.filter((text) => !flagged(text)).map((text) => text.source)).toEqual([]);
  });
});
