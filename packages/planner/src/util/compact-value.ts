/** Bounds for `compactValue`: how much of each kind of value survives. */
export interface CompactLimits {
  /** Longer strings are cut and end with `…[+N chars]`. */
  maxString: number;
  /** Longer arrays keep their first items and end with `…[+N items]`. */
  maxArray: number;
  /** Objects keep their first keys (in insertion order) and gain a `"…"` entry saying how many were left. */
  maxKeys: number;
  /** Deeper arrays and objects become a short `[…N items]` / `{…N keys}` string. */
  maxDepth: number;
}

export const PREVIEW_LIMITS: CompactLimits = { maxString: 400, maxArray: 10, maxKeys: 20, maxDepth: 4 };

/**
 * A JSON-safe copy of a value cut down to the given bounds, deterministically (same input, same output).
 * Used for bounded previews in events and for the rule-based trajectory compressor.
 */
export function compactValue(value: unknown, limits: CompactLimits = PREVIEW_LIMITS): unknown {
  return compact(value, limits, 0, new WeakSet());
}

/** A one-line digest of a value: its compact JSON, cut to `maxChars`. */
export function getValueDigest(value: unknown, maxChars: number): string {
  const text =
    typeof value === "string"
      ? value
      : (JSON.stringify(compactValue(value, { maxString: 80, maxArray: 5, maxKeys: 10, maxDepth: 2 })) ?? "");
  return clipText(text.replace(/\s+/g, " ").trim(), maxChars);
}

/** Cuts text to at most `maxChars` characters in all, ending with `…` when it was cut (for one-liners). */
export function clipText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  if (maxChars <= 0) return "";
  return `${text.slice(0, maxChars - 1)}…`;
}

function compact(value: unknown, limits: CompactLimits, depth: number, ancestors: WeakSet<object>): unknown {
  switch (typeof value) {
    case "string":
      return value.length > limits.maxString
        ? `${value.slice(0, limits.maxString)}…[+${value.length - limits.maxString} chars]`
        : value;
    case "number":
      return Number.isFinite(value) ? value : null;
    case "boolean":
      return value;
    case "bigint":
      return value.toString();
    case "undefined":
    case "function":
    case "symbol":
      return null;
  }
  if (typeof value !== "object" || value === null) return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (ancestors.has(value)) return "[circular]";
  if (Array.isArray(value)) {
    if (depth >= limits.maxDepth) return `[…${value.length} items]`;
    ancestors.add(value);
    const items = value.slice(0, limits.maxArray).map((item) => compact(item, limits, depth + 1, ancestors));
    ancestors.delete(value);
    if (value.length > limits.maxArray) items.push(`…[+${value.length - limits.maxArray} items]`);
    return items;
  }
  const entries = Object.entries(value).filter(([, item]) => item !== undefined);
  if (depth >= limits.maxDepth) return `{…${entries.length} keys}`;
  ancestors.add(value);
  // Built with fromEntries so that a "__proto__" key stays an own property.
  const kept: [string, unknown][] = entries
    .slice(0, limits.maxKeys)
    .map(([key, item]) => [key, compact(item, limits, depth + 1, ancestors)]);
  ancestors.delete(value);
  if (entries.length > limits.maxKeys) kept.push(["…", `+${entries.length - limits.maxKeys} keys`]);
  return Object.fromEntries(kept);
}
