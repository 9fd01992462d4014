import type { GuardCheck } from "@waddle/protocol";
import type { GuardSpan } from "../guard-types.js";
import { GuardCheckError } from "./guard-check-error.js";
import { keepFirstSpans, type TextMatcher } from "./text-matcher.js";

export type DenyWordsOptions = Omit<Extract<GuardCheck, { kind: "deny_words" }>, "kind">;

/** A letter, digit or underscore in any script: what a whole word may not touch. */
const WORD_CHAR = String.raw`[\p{L}\p{N}\p{M}_]`;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
const isWordChar = (char: string | undefined) => char !== undefined && /[\p{L}\p{N}\p{M}_]/u.test(char);
/** Most matches one window keeps: a regex such as `.` matching every char stops there, not at 32 K spans. */
const MAX_MATCHES_PER_WINDOW = 10_000;
/** What a user's regex may span, at most, for a match across a slice boundary to be found whole. */
const REGEX_MAX_SPAN = 1_000;

/**
 * A whole word: not preceded or followed by a letter, digit or underscore where the word itself starts or
 * ends with one (`c++` still ends at its `+`).
 */
function getWordPattern(word: string): string {
  const before = isWordChar(word[0]) ? `(?<!${WORD_CHAR})` : "";
  const after = isWordChar(word[word.length - 1]) ? `(?!${WORD_CHAR})` : "";
  return `${before}${escapeRegExp(word)}${after}`;
}

/** The regexes a `deny_words` check runs: one for all plain words, or one per regex word. */
export function compileDenyWords(options: DenyWordsOptions): RegExp[] {
  const flags = options.caseSensitive === true ? "gu" : "giu";
  if (options.regex !== true) {
    // Longest first, so that "credit card" wins over "credit" where both match.
    const words = [...new Set(options.words)].sort((a, b) => b.length - a.length);
    return [new RegExp(words.map(getWordPattern).join("|"), flags)];
  }
  return options.words.map((word, index) => {
    try {
      return new RegExp(word, flags);
    } catch (error) {
      throw new GuardCheckError(
        "invalid_guard_check",
        `deny_words word ${index + 1} is not a valid regular expression (with the u flag): ${(error as Error).message}. Fix it, or turn regex off to match it as plain text.`,
        { details: { index }, cause: error },
      );
    }
  });
}

/**
 * The `deny_words` check: whole words (or regexes, each compiled with `u`, plus `i` unless case-sensitive),
 * masked `[redacted]`, found as kind `word`. Empty regex matches are skipped (they have nothing to mask).
 * Regexes are the user's: they are run as given, so one that backtracks badly is as slow as it is anywhere.
 */
export function createDenyWordsMatcher(options: DenyWordsOptions): TextMatcher {
  const patterns = compileDenyWords(options);
  const longestWord = Math.max(...options.words.map((word) => word.length));
  return {
    maxSpanChars: options.regex === true ? REGEX_MAX_SPAN : longestWord,
    findSpans(text) {
      const spans: GuardSpan[] = [];
      for (const pattern of patterns) {
        pattern.lastIndex = 0;
        let found = 0;
        for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
          if (match[0].length === 0) {
            pattern.lastIndex += 1;
            continue;
          }
          spans.push({ start: match.index, end: match.index + match[0].length, kind: "word" });
          if ((found += 1) >= MAX_MATCHES_PER_WINDOW) break;
        }
      }
      return patterns.length > 1 ? keepFirstSpans(spans) : spans;
    },
    getMask: () => "[redacted]",
  };
}
