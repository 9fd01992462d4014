// C0 controls but tab and newline, DEL, and the C1 range (8-bit CSI/OSC): what a terminal could obey.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /\r\n|[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * Text from a run (answers, tool errors, observations: anything a web page or a model wrote) made safe to
 * print: control characters become visible symbols (ESC as ␛), so a run cannot clear the screen, retitle
 * the window or write the clipboard (OSC 52) through the CLI. Newlines and tabs stay.
 */
export function toTerminalText(text: string): string {
  return text.replace(CONTROL, (char) => {
    if (char === "\r\n") return "\n";
    const code = char.charCodeAt(0);
    if (code < 0x20) return String.fromCharCode(0x2400 + code);
    return code === 0x7f ? "\u2421" : "\ufffd";
  });
}

/** `toTerminalText` applied to every string (and key) of a JSON-like value. */
export function toTerminalValue<T>(value: T): T {
  if (typeof value === "string") return toTerminalText(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => toTerminalValue(item)) as T;
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[toTerminalText(key)] = toTerminalValue(item);
    return out as T;
  }
  return value;
}
