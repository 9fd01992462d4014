/** A value read from text, or why it could not be read (a message fit to show a person as is). */
export type ParseResult<T> = { ok: true; value: T } | { ok: false; error: string };

export interface ParseJsonOptions {
  /** Passed to `JSON.parse`: `protoSafeReviver` for text from outside that is later spread or merged. */
  reviver?: (this: unknown, key: string, value: unknown) => unknown;
}

/**
 * Parses JSON without throwing: the one JSON parser with a result type, for text the caller did not write
 * (LLM replies, request bodies, files, typed fields). The value is `unknown`: check it with zod first.
 */
export function parseJson(text: string, options: ParseJsonOptions = {}): ParseResult<unknown> {
  try {
    return { ok: true, value: JSON.parse(text, options.reviver) as unknown };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/** Keys that could reach an object's prototype when a parsed value is later merged or assigned. */
export const FORBIDDEN_JSON_KEYS: ReadonlySet<string> = new Set(["__proto__"]);

/**
 * A `JSON.parse` reviver that drops `__proto__` keys and `constructor` objects holding `prototype`, so that
 * nothing parsed from outside can pollute a prototype when it is spread, assigned or parsed by zod.
 */
export function protoSafeReviver(this: unknown, key: string, value: unknown): unknown {
  if (FORBIDDEN_JSON_KEYS.has(key)) return undefined;
  if (key === "constructor" && value !== null && typeof value === "object" && "prototype" in value)
    return undefined;
  return value;
}
