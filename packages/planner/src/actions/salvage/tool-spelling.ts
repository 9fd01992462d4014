/**
 * The one catalog tool a misspelled name means: `functions.search` (the OpenAI tool-call prefix),
 * `Search`, `search-docs` for `search_docs`. Undefined when none or several match: an unknown tool is
 * never guessed.
 */
export function findToolSpelling(node: string, toolNames: ReadonlySet<string>): string | undefined {
  const key = toToolKey(node.replace(/^(?:functions|tools|tool)[.:/]/i, ""));
  if (key.length === 0) return undefined;
  let found: string | undefined;
  for (const name of toolNames) {
    if (toToolKey(name) !== key) continue;
    if (found !== undefined) return undefined;
    found = name;
  }
  return found;
}

/** A name compared loosely: trimmed, lower-cased, spaces and dashes as underscores. */
export function toToolKey(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
}
