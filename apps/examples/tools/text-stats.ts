import { defineTool } from "@waddle/planner";
import { z } from "zod";

const WORDS_PER_MINUTE = 230;

/** Counts of a text: characters, words, sentences, paragraphs, reading time and the most frequent words. */
export function getTextStats(text: string, top = 5) {
  const words = text.match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu) ?? [];
  const counts = new Map<string, number>();
  for (const word of words) {
    const key = word.toLowerCase();
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const topWords = [...counts]
    .filter(([word]) => word.length > 3)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, top)
    .map(([word, count]) => ({ word, count }));
  const letters = words.reduce((sum, word) => sum + word.length, 0);
  return {
    characters: [...text].length,
    charactersNoSpaces: [...text.replace(/\s/g, "")].length,
    words: words.length,
    uniqueWords: counts.size,
    sentences: text.split(/[.!?…]+(?:\s|$)/).filter((part) => /[\p{L}\p{N}]/u.test(part)).length,
    paragraphs: text.split(/\n\s*\n/).filter((part) => part.trim() !== "").length,
    lines: text === "" ? 0 : text.split(/\r?\n/).length,
    averageWordLength: words.length === 0 ? 0 : Math.round((letters / words.length) * 100) / 100,
    readingTimeSeconds: Math.ceil((words.length / WORDS_PER_MINUTE) * 60),
    topWords,
  };
}

/** Measures a text, for answers such as "how long is this" or "which words dominate". */
export const textStats = defineTool({
  name: "text_stats",
  desc: "Count characters, words, sentences, paragraphs and lines of a text; estimate reading time; list its most frequent words.",
  args: z.object({
    text: z.string().max(1_000_000),
    top: z.int().min(0).max(50).default(5).describe("how many frequent words to list (words of 4+ letters)"),
  }),
  out: z.object({
    characters: z.int(),
    charactersNoSpaces: z.int(),
    words: z.int(),
    uniqueWords: z.int(),
    sentences: z.int(),
    paragraphs: z.int(),
    lines: z.int(),
    averageWordLength: z.number(),
    readingTimeSeconds: z.int(),
    topWords: z.array(z.object({ word: z.string(), count: z.int() })),
  }),
  sideEffects: "pure",
  tags: ["text"],
  latencyHintMs: 1,
  run: ({ text, top }) => getTextStats(text, top),
});
