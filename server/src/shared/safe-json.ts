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

export type SafeJsonResult = { ok: true; value: unknown } | { ok: false; message: string };

/** Parses JSON from outside with `protoSafeReviver`; never throws. */
export function safeJsonParse(text: string): SafeJsonResult {
  try {
    return { ok: true, value: JSON.parse(text, protoSafeReviver) as unknown };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}
