import { INJECTION_RULES, type InjectionRule } from "./injection-rules.js";

const isWordCode = (code: number) => (code >= 97 && code <= 122) || (code >= 48 && code <= 57);

interface Start {
  text: string;
  /** Whether a word must end after it (a start that ends in a letter or digit, without `*`). */
  whole: boolean;
  /** Indexes in INJECTION_RULES. */
  rules: readonly number[];
}

/**
 * Each rule's starts, by their first two chars (or their only one): at each place of a text, only the few
 * starts that can begin there are compared. ASCII only: every start begins with an ASCII char.
 */
const BY_PAIR: (Start[] | undefined)[] = Array.from({ length: 128 * 128 }, () => undefined);
const BY_CHAR: (Start[] | undefined)[] = [];
for (const written of new Set(INJECTION_RULES.flatMap((rule) => rule.starts))) {
  const text = written.replace(/\*$/, "");
  const whole = !written.endsWith("*") && isWordCode(text.charCodeAt(text.length - 1));
  const rules = INJECTION_RULES.flatMap((rule, index) => (rule.starts.includes(written) ? [index] : []));
  const start = { text, whole, rules };
  const first = text.charCodeAt(0);
  if (first >= 128) throw new Error(`An injection rule's start must begin with an ASCII char: "${text}".`);
  if (text.length === 1) (BY_CHAR[first] ??= []).push(start);
  else {
    const pair = first * 128 + text.charCodeAt(1);
    (BY_PAIR[pair] ??= []).push(start);
  }
}
/** First chars any start begins with: a quick test before anything else. */
const FIRSTS = new Uint8Array(128);
for (const written of new Set(INJECTION_RULES.flatMap((rule) => rule.starts)))
  FIRSTS[written.charCodeAt(0)] = 1;

/**
 * Calls `found` with each place in `lower` (the text lower-cased, same length) where a rule's match can
 * start, and a rule that can start there (a rule may come twice for one place): a start that begins with a
 * letter or digit counts at a word's start, one that begins with a symbol anywhere. One pass, in order.
 */
export function forEachAnchor(lower: string, found: (index: number, rule: number) => void): void {
  const report = (starts: readonly Start[], index: number) => {
    for (let at = 0; at < starts.length; at += 1) {
      const start = starts[at]!;
      if (start.text.length > 2 && !lower.startsWith(start.text, index)) continue;
      if (start.whole && isWordCode(lower.charCodeAt(index + start.text.length))) continue;
      for (let rule = 0; rule < start.rules.length; rule += 1) found(index, start.rules[rule]!);
    }
  };
  let previousIsWord = false;
  for (let index = 0; index < lower.length; index += 1) {
    const code = lower.charCodeAt(index);
    const wordAfterWord = previousIsWord;
    previousIsWord = isWordCode(code);
    if (code >= 128 || FIRSTS[code] === 0 || (previousIsWord && wordAfterWord)) continue;
    const single = BY_CHAR[code];
    if (single !== undefined) report(single, index);
    const next = lower.charCodeAt(index + 1);
    const pair = next < 128 ? BY_PAIR[code * 128 + next] : undefined;
    if (pair !== undefined) report(pair, index);
  }
}

/** True when a match of `rule` may start at `index` of `lower` (what the tests check every match against). */
export function isAnchor(lower: string, index: number, rule: InjectionRule): boolean {
  const wanted = INJECTION_RULES.indexOf(rule);
  let anchored = false;
  forEachAnchor(lower.slice(Math.max(0, index - 1), index + 40), (at, candidate) => {
    anchored ||= candidate === wanted && at === Math.min(1, index);
  });
  return anchored;
}
