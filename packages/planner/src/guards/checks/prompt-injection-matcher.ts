import type { GuardSpan } from "../guard-types.js";
import { forEachAnchor } from "./injection-anchors.js";
import { INJECTION_RULES, type InjectionRule } from "./injection-rules.js";
import { keepFirstSpans, type TextMatcher } from "./text-matcher.js";

/** A sentence is an injection at this score: one strong phrase, or weaker ones together. */
export const INJECTION_THRESHOLD = 1;
/** A sentence longer than this is cut (at a space where it can be), so that a span stays short. */
const MAX_SENTENCE = 600;
/** Sentences this close (chars between them) lend each other half their score. */
const NEIGHBOUR_GAP = 200;
/** A span covers the sentences a match touches (≤ 600 + a match of ≤ 700 + 600), and neighbours are read 200 further. */
const INJECTION_MAX_SPAN = 2_200;

interface Sentence {
  start: number;
  end: number;
  score: number;
  /** The rules it matched, with the weight each added (less for a quoted phrase). */
  rules: Map<string, number>;
}

/** A phrase in quotes is mentioned, not said ("attackers write 'ignore previous instructions'"): it counts this much. */
const QUOTED_WEIGHT = 0.25;
const OPENING_QUOTES = new Set(["'", '"', "‘", "“", "«", "`"]);
const CLOSING_QUOTES = new Set(["'", '"', "’", "”", "»", "`"]);
const isQuoted = (text: string, start: number, end: number) =>
  OPENING_QUOTES.has(text[start - 1] ?? "") && CLOSING_QUOTES.has(text[end] ?? "");

const isSpace = (char: string | undefined) => char === " " || char === "\t" || char === "\r" || char === "\n";

/**
 * Where each sentence of `text` starts, in one pass: after a line break, after `.`/`!`/`?` and a space,
 * and every 600 chars at most (at the last space before, where there is one).
 */
export function getSentenceStarts(text: string): number[] {
  const starts = [0];
  let last = 0;
  let lastSpace = -1;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === 32 || code === 9 || code === 13 || code === 10) lastSpace = index;
    let next = -1;
    if (code === 10 || ((code === 46 || code === 33 || code === 63) && isSpace(text[index + 1])))
      next = index + 1;
    else if (index - last >= MAX_SENTENCE) next = lastSpace > last + MAX_SENTENCE / 2 ? lastSpace + 1 : index;
    if (next > last && next < text.length) {
      starts.push(next);
      last = next;
    }
  }
  return starts;
}

/** The index of the sentence holding `position`: the last start at or before it. */
function findSentence(starts: readonly number[], position: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (starts[middle]! <= position) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** `[from, to)` widened to the sentences it touches, without their edge spaces. */
function getSentence(
  text: string,
  starts: readonly number[],
  from: number,
  to: number,
): { start: number; end: number } {
  const last = findSentence(starts, Math.max(from, to - 1));
  let start = starts[findSentence(starts, from)]!;
  let end = starts[last + 1] ?? text.length;
  while (start < end && isSpace(text[start])) start += 1;
  while (end > start && isSpace(text[end - 1])) end -= 1;
  return { start, end };
}

/**
 * Every rule's matches: at each place one of its starts is (injection-anchors.ts), with its sticky regex,
 * not overlapping its own previous match (as a global regex would find them); or, `everywhere`, with its
 * global regex over the whole text (what the tests compare the first with).
 */
function collectMatches(
  text: string,
  everywhere: boolean,
): { rule: InjectionRule; match: RegExpExecArray }[] {
  const found: { rule: InjectionRule; match: RegExpExecArray }[] = [];
  const lower = text.toLowerCase();
  if (everywhere || lower.length !== text.length) {
    for (const rule of INJECTION_RULES) {
      rule.pattern.lastIndex = 0;
      for (const match of text.matchAll(rule.pattern)) found.push({ rule, match });
    }
    return found;
  }
  // Per rule: where its last match ended (no overlaps, as a global regex), and where it was last tried;
  // per gate, where it was last tested and how that went.
  const ends = new Int32Array(INJECTION_RULES.length);
  const tried = new Int32Array(INJECTION_RULES.length).fill(-1);
  const gateAt = new Map<RegExp, number>();
  const gateOpen = new Map<RegExp, boolean>();
  forEachAnchor(lower, (index, ruleIndex) => {
    if (index < ends[ruleIndex]! || tried[ruleIndex] === index) return;
    tried[ruleIndex] = index;
    const rule = INJECTION_RULES[ruleIndex]!;
    if (rule.gate !== undefined) {
      if (gateAt.get(rule.gate) !== index) {
        rule.gate.lastIndex = index;
        gateAt.set(rule.gate, index);
        gateOpen.set(rule.gate, rule.gate.test(text));
      }
      if (gateOpen.get(rule.gate) !== true) return;
    }
    rule.sticky.lastIndex = index;
    const match = rule.sticky.exec(text);
    if (match === null) return;
    found.push({ rule, match });
    ends[ruleIndex] = index + Math.max(1, match[0].length);
  });
  return found;
}

/** The sentences some rule matched in, each scored once per rule. */
export function scoreSentences(text: string, options: { everywhere?: boolean } = {}): Sentence[] {
  const sentences = new Map<number, Sentence>();
  let starts: number[] | undefined;
  for (const { rule, match } of collectMatches(text, options.everywhere === true)) {
    if (rule.accept && !rule.accept(match)) continue;
    const matchEnd = match.index + match[0].length;
    starts ??= getSentenceStarts(text);
    const { start, end } = getSentence(text, starts, match.index, matchEnd);
    const sentence = sentences.get(start) ?? { start, end, score: 0, rules: new Map<string, number>() };
    sentences.set(start, sentence);
    sentence.end = Math.max(sentence.end, end);
    if (sentence.rules.has(rule.id)) continue;
    const weight = isQuoted(text, match.index, matchEnd) ? rule.weight * QUOTED_WEIGHT : rule.weight;
    sentence.rules.set(rule.id, weight);
    sentence.score += weight;
  }
  return [...sentences.values()].sort((a, b) => a.start - b.start);
}

/**
 * Which matched sentences are injections: a sentence's score plus half the weight of each rule its
 * neighbours (matched sentences within 200 chars) matched and it did not, each rule once, reaches the
 * threshold. A weak signal repeated line after line (a CSV column of "Support agent,") lends nothing.
 */
export function findInjections(text: string): GuardSpan[] {
  const sentences = scoreSentences(text);
  const spans: GuardSpan[] = [];
  sentences.forEach((sentence, index) => {
    const lent = new Map<string, number>();
    const lend = (other: Sentence) => {
      for (const [id, weight] of other.rules)
        if (!sentence.rules.has(id)) lent.set(id, Math.max(lent.get(id) ?? 0, weight));
    };
    for (
      let other = index - 1;
      other >= 0 && sentence.start - sentences[other]!.end <= NEIGHBOUR_GAP;
      other -= 1
    ) {
      lend(sentences[other]!);
    }
    for (let other = index + 1; other < sentences.length; other += 1) {
      if (sentences[other]!.start - sentence.end > NEIGHBOUR_GAP) break;
      lend(sentences[other]!);
    }
    let score = sentence.score;
    for (const weight of lent.values()) score += weight / 2;
    if (score >= INJECTION_THRESHOLD - 1e-9)
      spans.push({ start: sentence.start, end: sentence.end, kind: "injection" });
  });
  return keepFirstSpans(spans);
}

/** The `prompt_injection` check: each instruction sentence addressed to the model is masked `[injection]`. */
export function createPromptInjectionMatcher(): TextMatcher {
  return { maxSpanChars: INJECTION_MAX_SPAN, findSpans: findInjections, getMask: () => "[injection]" };
}
