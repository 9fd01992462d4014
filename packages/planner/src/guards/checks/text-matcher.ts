import type { GuardSpan } from "../guard-types.js";

/**
 * One scanning check's rules over one string, synchronously. The scanner (sliced-scanner.ts) calls it on
 * windows of a long text, so a matcher never sees more than a slice plus its overlap at a time.
 */
export interface TextMatcher {
  /**
   * The longest span it reports, in chars. Windows overlap by this much on both sides, so that a span
   * across a slice boundary lies whole in the window that owns its start (and is counted there only).
   */
  readonly maxSpanChars: number;
  /** Spans in `text`, sorted by start and not overlapping. */
  findSpans(text: string): GuardSpan[];
  /** What replaces a span of this kind when redacting (`[email]`, `[secret]`). */
  getMask(kind: string): string;
}

/**
 * Sorts spans by start and keeps the first of any that overlap (a longer one first at the same start);
 * `rank` (lower wins) lets a more specific rule keep its span over a looser one that overlaps it.
 */
export function keepFirstSpans<Span extends GuardSpan>(
  spans: readonly Span[],
  rank: (span: Span) => number = () => 0,
): Span[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end || rank(a) - rank(b));
  const kept: Span[] = [];
  for (const span of sorted) {
    const last = kept[kept.length - 1];
    if (last === undefined || span.start >= last.end) kept.push(span);
    else if (rank(span) < rank(last)) kept[kept.length - 1] = span;
  }
  return kept;
}

/** `text` with every span (sorted, not overlapping) replaced by its mask. */
export function applyMasks(text: string, spans: readonly GuardSpan[], matcher: TextMatcher): string {
  if (spans.length === 0) return text;
  const parts: string[] = [];
  let at = 0;
  for (const span of spans) {
    parts.push(text.slice(at, span.start), matcher.getMask(span.kind));
    at = span.end;
  }
  parts.push(text.slice(at));
  return parts.join("");
}
