import { SLUG_PATTERN } from "@waddle/protocol";

/**
 * `base`, or `base_2`, `base_3`, … (joined with `separator`), whichever is not taken. A taken base that
 * already ends in a number counts on from it: a copy of `summarize_3` is `summarize_4`, not `summarize_3_2`.
 */
export function createUniqueName(options: {
  base: string;
  taken: Iterable<string>;
  separator?: string;
}): string {
  const taken = new Set(options.taken);
  const separator = options.separator ?? "_";
  if (!taken.has(options.base)) return options.base;
  const numbered = options.base.lastIndexOf(separator);
  const suffix = options.base.slice(numbered + separator.length);
  const counts = numbered > 0 && /^[1-9][0-9]{0,5}$/.test(suffix);
  const stem = counts ? options.base.slice(0, numbered) : options.base;
  for (let index = counts ? Number(suffix) + 1 : 2; ; index += 1) {
    const candidate = `${stem}${separator}${index}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** A slug (lower-case, digits, `-`, `_`, max 64) made from any text; `fallback` when nothing is left. */
export function toSlug(text: string, fallback = "agent"): string {
  const slug = text
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "-")
    .replace(/^[-_]+|-+$/g, "")
    .slice(0, 56);
  return SLUG_PATTERN.test(slug) ? slug : fallback;
}

/** A tool name (letters, digits, `_`, not starting with a digit) made from any text. */
export function toToolName(text: string, fallback = "tool"): string {
  const name = text
    .trim()
    .replace(/[^A-Za-z0-9_]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 56);
  if (name === "") return fallback;
  return /^[0-9]/.test(name) ? `_${name}` : name;
}
