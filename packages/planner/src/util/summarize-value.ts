import { truncateText } from "./create-preview.js";

const MAX_KEYS = 5;
const MAX_SCALAR_CHARS = 48;

/**
 * One short line describing a value for `reasoning` events (`[Act]`/`[Obs]`): top-level keys with short
 * scalars, sizes of lists, `{…}` for nested objects. Shallow on purpose: cheap on every step, and it
 * shows the shape of a result rather than its data.
 */
export function summarizeValue(value: unknown, maxChars = 200): string {
  if (Array.isArray(value)) return `${value.length} item${value.length === 1 ? "" : "s"}`;
  if (value === null || typeof value !== "object") return scalar(value);
  const keys = Object.keys(value);
  const parts: string[] = [];
  for (let index = 0; index < keys.length && index < MAX_KEYS; index += 1) {
    const key = keys[index] as string;
    parts.push(`${key}: ${shallow((value as Record<string, unknown>)[key])}`);
  }
  if (keys.length > MAX_KEYS) parts.push(`+${keys.length - MAX_KEYS} more`);
  return truncateText(`{${parts.join(", ")}}`, maxChars);
}

function shallow(value: unknown): string {
  if (Array.isArray(value)) return `[${value.length}]`;
  if (value !== null && typeof value === "object") return "{…}";
  return scalar(value);
}

function scalar(value: unknown): string {
  if (typeof value === "string") return `"${truncateText(value, MAX_SCALAR_CHARS)}"`;
  if (value === undefined) return "undefined";
  if (typeof value === "bigint") return `${value}n`;
  if (typeof value === "function" || typeof value === "symbol") return typeof value;
  return String(value);
}
