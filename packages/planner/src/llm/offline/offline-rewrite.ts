/** What a turn asks of the previous answer (see `getFollowUpRequest`). */
export type FollowUpRequest =
  | { kind: "sentences"; count: number }
  | { kind: "words"; count: number }
  | { kind: "shorter" }
  | { kind: "bullets" }
  | { kind: "repeat" }
  /** A rewrite only a language model can do (rephrase, translate, a tone): named by its verb. */
  | { kind: "unsupported"; verb: string };

/** Above this many words, a one-sentence answer is cut too (a "sentence" of 80 words is not short). */
const LONG_SENTENCE_WORDS = 30;

/**
 * Rewrites an earlier answer as a follow-up asks, deterministically: the first sentences or words, half
 * of it, its sentences as a list, or the same text. Undefined for a rewrite the offline model cannot do.
 */
export function rewriteOffline(text: string, request: FollowUpRequest): string | undefined {
  const sentences = getSentences(text);
  switch (request.kind) {
    case "sentences": {
      const kept = sentences.slice(0, Math.max(1, request.count)).join(" ");
      return request.count === 1 ? clipWords(kept, LONG_SENTENCE_WORDS) : kept;
    }
    case "words":
      return clipWords(sentences.join(" "), Math.max(1, request.count));
    case "shorter": {
      if (sentences.length > 1) return sentences.slice(0, Math.floor(sentences.length / 2)).join(" ");
      const words = countWords(sentences[0] ?? "");
      return clipWords(sentences[0] ?? "", words > 12 ? Math.ceil(words / 2) : words);
    }
    case "bullets":
      return sentences.map((sentence) => `- ${sentence}`).join("\n");
    case "repeat":
      return text.trim();
    case "unsupported":
      return undefined;
  }
}

/**
 * Sentences in order: a paragraph or line is split after `.`, `!`, `?` or `…` followed by a space, and a
 * line without closing punctuation ("Hi Dana,") is a sentence of its own.
 */
export function getSentences(text: string): string[] {
  return text
    .split(/\n+/)
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .flatMap((line) => line.split(/(?<=[.!?…])\s+(?=\S)/))
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence !== "");
}

function countWords(text: string): number {
  return text.split(/\s+/).filter((word) => word !== "").length;
}

/** The first `count` words, ending in "…" when some were cut. */
function clipWords(text: string, count: number): string {
  const words = text.split(/\s+/).filter((word) => word !== "");
  if (words.length <= count) return words.join(" ");
  return `${words
    .slice(0, count)
    .join(" ")
    .replace(/[,;:.!?-]+$/, "")}…`;
}
