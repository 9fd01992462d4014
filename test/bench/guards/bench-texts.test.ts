import { describe, expect, it } from "vitest";
import { buildBenchText, loadInjectionCorpus } from "./bench-texts.js";

describe("buildBenchText", () => {
  it("builds a text of exactly the size asked, with findings every 2 KB and injections every 8 KB", () => {
    const corpus = loadInjectionCorpus();
    const text = buildBenchText(32 * 1024, corpus);
    expect(text.length).toBe(32 * 1024);
    expect(text.match(/ana\.lopez@example\.com/g)?.length).toBeGreaterThanOrEqual(14);
    const injected = corpus.filter((item) => item.label === "injected" && text.includes(item.text));
    expect(injected.length).toBeGreaterThanOrEqual(3);
    expect(buildBenchText(1_000, corpus)).toHaveLength(1_000);
  });
});
