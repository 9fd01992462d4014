import type { GuardFinding } from "@waddle/protocol";
import type { GuardSpan, Scanner } from "../guard-types.js";
import { GuardCheckError } from "./guard-check-error.js";
import { findTextSpans, findWindowSpans, getSliceWindows } from "./slice-windows.js";
import { applyMasks, keepFirstSpans, type TextMatcher } from "./text-matcher.js";

/** How a scanner shares the event loop. */
export interface ScannerOptions {
  /** Chars scanned between two yields to the event loop (default 32 KB); long strings are cut into slices this long. */
  sliceChars?: number;
  /** How to yield (default: a `setImmediate` turn); a test passes its own to count the yields. */
  yieldToLoop?: () => Promise<void>;
  /** More findings than this in one value throw `guard_scan_limit` (default 100,000). */
  maxSpans?: number;
}

export const DEFAULT_SLICE_CHARS = 32 * 1024;
export const DEFAULT_MAX_SPANS = 100_000;
/** What a string leaf costs beyond its chars, so that a value of many tiny strings yields too. */
const LEAF_COST = 16;

const yieldWithSetImmediate = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A `Scanner` over one matcher. `scan` walks the value in three passes: collect its strings (sync), scan
 * them window by window, yielding to the event loop whenever a slice's worth of chars was scanned, then
 * rebuild the value with masked strings (sync; containers with no change are reused, never mutated).
 * Only strings are scanned: keys stay as they are, and numbers are never read as digits (a card number
 * sent as a JSON number is not found; numbers that long lose digits in JSON anyway).
 */
export function createSlicedScanner(matcher: TextMatcher, options: ScannerOptions = {}): Scanner {
  const sliceChars = Math.max(1, Math.floor(options.sliceChars ?? DEFAULT_SLICE_CHARS));
  const yieldToLoop = options.yieldToLoop ?? yieldWithSetImmediate;
  const maxSpans = options.maxSpans ?? DEFAULT_MAX_SPANS;

  return {
    scanText: (text) => findTextSpans(text, matcher, sliceChars),
    async scan(value, signal) {
      signal?.throwIfAborted();
      const strings = collectStrings(value);
      const counts = new Map<string, number>();
      const replacements = new Map<number, string>();
      let spanCount = 0;
      let work = 0;
      for (const [index, text] of strings.entries()) {
        const spans: GuardSpan[] = [];
        for (const window of getSliceWindows(text.length, sliceChars, matcher.maxSpanChars)) {
          if (work >= sliceChars) {
            await yieldToLoop();
            signal?.throwIfAborted();
            work = 0;
          }
          for (const span of findWindowSpans(text, window, matcher)) spans.push(span);
          work += window.ownEnd - window.ownStart;
        }
        work += LEAF_COST;
        const kept = spans.length > 1 ? keepFirstSpans(spans) : spans;
        if (kept.length === 0) continue;
        spanCount += kept.length;
        if (spanCount > maxSpans) {
          throw new GuardCheckError(
            "guard_scan_limit",
            `The value has more than ${maxSpans} findings; it is not masked. Check smaller values, or use block.`,
            { details: { maxSpans } },
          );
        }
        for (const span of kept) counts.set(span.kind, (counts.get(span.kind) ?? 0) + 1);
        replacements.set(index, applyMasks(text, kept, matcher));
      }
      return { findings: getFindings(counts), redacted: replaceStrings(value, replacements) };
    },
  } satisfies Scanner;
}

/** Counts by kind, sorted by kind so that equal scans give equal findings. */
function getFindings(counts: ReadonlyMap<string, number>): GuardFinding[] {
  return [...counts]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([kind, count]) => ({ kind, count }));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object") return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/** Every string leaf of arrays and plain objects, depth first in key order (what `replaceStrings` follows). */
export function collectStrings(value: unknown): string[] {
  const strings: string[] = [];
  const path = new Set<object>();
  const visit = (item: unknown): void => {
    if (typeof item === "string") {
      strings.push(item);
      return;
    }
    if (!Array.isArray(item) && !isPlainObject(item)) return;
    if (path.has(item)) {
      throw new GuardCheckError("unscannable_value", "The value contains itself; guards check JSON values.");
    }
    path.add(item);
    for (const child of Array.isArray(item) ? item : Object.values(item)) visit(child);
    path.delete(item);
  };
  visit(value);
  return strings;
}

/** `value` with the string leaves at the given indexes (in `collectStrings` order) replaced; unchanged parts are shared. */
export function replaceStrings(value: unknown, replacements: ReadonlyMap<number, string>): unknown {
  if (replacements.size === 0) return value;
  let index = 0;
  const visit = (item: unknown): unknown => {
    if (typeof item === "string") return replacements.get(index++) ?? item;
    if (Array.isArray(item)) {
      let copy: unknown[] | undefined;
      item.forEach((child, position) => {
        const next = visit(child);
        if (next !== child) (copy ??= [...item])[position] = next;
      });
      return copy ?? item;
    }
    if (!isPlainObject(item)) return item;
    let changed = false;
    const entries = Object.entries(item).map(([key, child]) => {
      const next = visit(child);
      changed ||= next !== child;
      return [key, next] as const;
    });
    // fromEntries defines keys as data (an own "__proto__" key stays a key).
    return changed ? Object.fromEntries(entries) : item;
  };
  return visit(value);
}
