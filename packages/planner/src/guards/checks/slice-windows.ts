import type { GuardSpan } from "../guard-types.js";
import { keepFirstSpans, type TextMatcher } from "./text-matcher.js";

/**
 * A piece of a long text scanned at once: `[start, end)` is what the matcher reads, `[ownStart, ownEnd)`
 * the slice whose spans it keeps (by where they start). The overlap on each side gives a rule its context
 * (what precedes a match) and room to finish a match begun near the slice's end.
 */
export interface SliceWindow {
  start: number;
  end: number;
  ownStart: number;
  ownEnd: number;
}

/**
 * The windows of a text of `length` chars: consecutive slices of `sliceChars`, each read with `overlap`
 * chars either side. A text no longer than one slice is one window.
 */
export function getSliceWindows(length: number, sliceChars: number, overlap: number): SliceWindow[] {
  if (length <= sliceChars) return [{ start: 0, end: length, ownStart: 0, ownEnd: length }];
  const windows: SliceWindow[] = [];
  for (let ownStart = 0; ownStart < length; ownStart += sliceChars) {
    const ownEnd = Math.min(length, ownStart + sliceChars);
    windows.push({
      start: Math.max(0, ownStart - overlap),
      end: Math.min(length, ownEnd + overlap),
      ownStart,
      ownEnd,
    });
  }
  return windows;
}

/** The spans of one window, in the whole text's positions, that start in the window's own slice. */
export function findWindowSpans(text: string, window: SliceWindow, matcher: TextMatcher): GuardSpan[] {
  const whole = window.start === 0 && window.end === text.length;
  const spans = matcher.findSpans(whole ? text : text.slice(window.start, window.end));
  const owned: GuardSpan[] = [];
  for (const span of spans) {
    const start = span.start + window.start;
    if (start < window.ownStart || start >= window.ownEnd) continue;
    owned.push({ start, end: span.end + window.start, kind: span.kind });
  }
  return owned;
}

/**
 * Every span of `text`, window by window, without yielding: what `scanText` answers and what a scan of
 * one string finds. Two windows may each see a span the other owns differently near a boundary (a rule
 * reading other context); the last pass keeps the first of overlapping spans, so nothing counts twice.
 */
export function findTextSpans(text: string, matcher: TextMatcher, sliceChars: number): GuardSpan[] {
  const spans: GuardSpan[] = [];
  for (const window of getSliceWindows(text.length, sliceChars, matcher.maxSpanChars)) {
    for (const span of findWindowSpans(text, window, matcher)) spans.push(span);
  }
  return keepFirstSpans(spans);
}
