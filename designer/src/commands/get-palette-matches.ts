/** What the command palette lists: a node, a tool to add, an agent to open or a command. */
export type PaletteGroup = "Nodes" | "Tools" | "Agents" | "Commands";

export interface PaletteEntry {
  id: string;
  group: PaletteGroup;
  label: string;
  /** Shown after the label, searched too (a tool's kind, an agent's id). */
  detail?: string;
  shortcut?: string;
}

/** The order groups show in when their scores tie, and for an empty query. */
const GROUP_ORDER: Record<PaletteGroup, number> = { Commands: 0, Nodes: 1, Tools: 2, Agents: 3 };

/**
 * How well `query` matches `text`, or null when it does not: every query character must appear in order
 * (case-insensitive), so "autlay" finds "Auto-layout". Runs of adjacent characters, matches at word
 * starts and an early first match score higher; a plain substring beats any scattered match.
 */
export function getFuzzyScore(query: string, text: string): number | null {
  const needle = query.trim().toLowerCase();
  if (needle === "") return 0;
  const haystack = text.toLowerCase();
  const substring = haystack.indexOf(needle);
  if (substring >= 0) return 1000 - substring + (isWordStart(haystack, substring) ? 200 : 0);
  let score = 0;
  let from = 0;
  let previous = -2;
  for (const char of needle) {
    if (char === " ") continue;
    const at = haystack.indexOf(char, from);
    if (at < 0) return null;
    score += at === previous + 1 ? 8 : isWordStart(haystack, at) ? 6 : 1;
    previous = at;
    from = at + 1;
  }
  return score - haystack.length / 100;
}

function isWordStart(text: string, index: number): boolean {
  if (index === 0) return true;
  return /[^a-z0-9]/.test(text[index - 1] ?? "");
}

/** The entries matching `query`, best first (ties keep group order, then their own order); at most `limit`. */
export function getPaletteMatches<Entry extends PaletteEntry>(
  entries: readonly Entry[],
  options: { query: string; limit?: number },
): Entry[] {
  const { query, limit = 60 } = options;
  const scored = entries.flatMap((entry, index) => {
    const score = getFuzzyScore(query, `${entry.label} ${entry.detail ?? ""}`);
    return score === null ? [] : [{ entry, score, index }];
  });
  scored.sort(
    (a, b) =>
      b.score - a.score || GROUP_ORDER[a.entry.group] - GROUP_ORDER[b.entry.group] || a.index - b.index,
  );
  return scored.slice(0, limit).map(({ entry }) => entry);
}
