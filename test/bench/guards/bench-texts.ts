import { readFileSync } from "node:fs";
import { z } from "zod";

const CORPUS_FILE = new URL("../../fixtures/guards/prompt-injection-corpus.json", import.meta.url);

const Corpus = z.strictObject({
  version: z.literal(1),
  items: z.array(z.strictObject({ id: z.string(), label: z.enum(["injected", "clean"]), text: z.string() })),
});
export type CorpusItem = z.infer<typeof Corpus>["items"][number];

/** test/fixtures/guards/prompt-injection-corpus.json, checked. */
export function loadInjectionCorpus(): CorpusItem[] {
  return Corpus.parse(JSON.parse(readFileSync(CORPUS_FILE, "utf8"))).items;
}

/** What every 2 KB of a bench text carries: one of each PII type and an API key (made-up values). */
const FINDINGS_LINE =
  "Contact ana.lopez@example.com or +44 20 7946 0958; paid by 4111 1111 1111 1111 from GB82 WEST 1234 5698 7654 32; api_key=a1b2c3d4e5f6g7h8.\n";

/**
 * A tool result of exactly `chars` chars: the clean corpus's texts one after another (prose, emails, CSV,
 * JSON, hard negatives), a line of findings every 2 KB and one injected text from the corpus every 8 KB,
 * so that each check has something to find and mostly text to read past.
 */
export function buildBenchText(chars: number, corpus: readonly CorpusItem[]): string {
  const clean = corpus.filter((item) => item.label === "clean");
  const injected = corpus.filter((item) => item.label === "injected");
  const parts: string[] = [];
  let length = 0;
  let nextFindings = 0;
  let nextInjection = 4_096;
  for (let index = 0; length < chars; index += 1) {
    let part = `${clean[index % clean.length]!.text}\n`;
    if (length >= nextFindings) {
      part = FINDINGS_LINE + part;
      nextFindings += 2_048;
    }
    if (length >= nextInjection) {
      part = `${injected[(index * 7) % injected.length]!.text}\n${part}`;
      nextInjection += 8_192;
    }
    parts.push(part);
    length += part.length;
  }
  return parts.join("").slice(0, chars);
}
