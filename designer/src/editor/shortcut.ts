/** The parts of a keyboard event a shortcut looks at. */
export interface KeyStroke {
  key: string;
  /** The physical key (`Digit1`), when the event tells it. */
  code?: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

interface ParsedShortcut {
  mod: boolean;
  shift: boolean;
  alt: boolean;
  key: string;
}

/** Parses `Mod+Shift+Z`: `Mod` is ⌘ on macOS and Ctrl elsewhere; the last part is the key. */
export function parseShortcut(shortcut: string): ParsedShortcut {
  const parts = shortcut.split("+");
  const key = parts.pop() ?? "";
  return {
    mod: parts.includes("Mod"),
    shift: parts.includes("Shift"),
    alt: parts.includes("Alt"),
    key: key === "" ? "+" : key,
  };
}

/**
 * True when a key stroke triggers a shortcut. Symbol keys (`?`) ignore Shift, which typing them needs. A
 * digit matches on its physical key too: Shift+1 sends "!" (or another symbol, by layout) as its `key`,
 * but its `code` is `Digit1`. Letters match on `key`, so that shortcuts follow the layout people type on.
 */
export function isShortcutMatch(shortcut: string, stroke: KeyStroke, isMac: boolean): boolean {
  const parsed = parseShortcut(shortcut);
  const mod = isMac ? stroke.metaKey : stroke.ctrlKey;
  const other = isMac ? stroke.ctrlKey : stroke.metaKey;
  if (parsed.mod !== mod || other || parsed.alt !== stroke.altKey) return false;
  const isSymbol = parsed.key.length === 1 && !/[a-z0-9]/i.test(parsed.key);
  if (!isSymbol && parsed.shift !== stroke.shiftKey) return false;
  if (/^[0-9]$/.test(parsed.key) && stroke.code !== undefined) {
    if (stroke.code === `Digit${parsed.key}` || stroke.code === `Numpad${parsed.key}`) return true;
  }
  // Option+letter types a symbol on macOS (⌥B sends "∫"): with Alt held, a letter matches its physical key
  if (parsed.alt && /^[a-z]$/i.test(parsed.key) && stroke.code === `Key${parsed.key.toUpperCase()}`)
    return true;
  return parsed.key.toLowerCase() === stroke.key.toLowerCase();
}

/** A shortcut as people read it on this platform: `⌘⇧Z` on macOS, `Ctrl+Shift+Z` elsewhere. */
export function formatShortcut(shortcut: string, isMac: boolean): string {
  const parsed = parseShortcut(shortcut);
  const key = parsed.key.length === 1 ? parsed.key.toUpperCase() : parsed.key;
  if (isMac) return `${parsed.mod ? "⌘" : ""}${parsed.alt ? "⌥" : ""}${parsed.shift ? "⇧" : ""}${key}`;
  return [parsed.mod ? "Ctrl" : "", parsed.alt ? "Alt" : "", parsed.shift ? "Shift" : "", key]
    .filter(Boolean)
    .join("+");
}
