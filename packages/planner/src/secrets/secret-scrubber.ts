import { redactText } from "../secrets/redact-text.js";

const MAX_DEPTH = 6;

/** Every non-empty string inside `toolContext` (nested objects and arrays too): what must never leak. */
export function collectSecretStrings(
  toolContext: Readonly<Record<string, unknown>> | undefined,
): ReadonlySet<string> {
  const secrets = new Set<string>();
  const visit = (value: unknown, depth: number): void => {
    if (typeof value === "string") {
      if (value.length > 0) secrets.add(value);
      return;
    }
    if (depth >= MAX_DEPTH || value === null || typeof value !== "object") return;
    if (Array.isArray(value)) for (const item of value) visit(item, depth + 1);
    else if (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null) {
      for (const item of Object.values(value)) visit(item, depth + 1);
    }
  };
  if (toolContext !== undefined) visit(toolContext, 0);
  return secrets;
}

/**
 * `value` with every secret string replaced (see `redactText`); returns the same reference when nothing
 * changed, so that the common case copies nothing.
 */
export function scrubSecrets<T>(value: T, secrets: ReadonlySet<string>): T {
  if (secrets.size === 0) return value;
  return scrub(value, secrets, 0) as T;
}

function scrub(value: unknown, secrets: ReadonlySet<string>, depth: number): unknown {
  if (typeof value === "string") return redactText(value, secrets);
  if (value === null || typeof value !== "object" || depth > 64) return value;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    value.forEach((item, index) => {
      const next = scrub(item, secrets, depth + 1);
      if (next !== item) (out ??= [...value])[index] = next;
    });
    return out ?? value;
  }
  let out: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(value)) {
    const next = scrub(item, secrets, depth + 1);
    if (next !== item) (out ??= { ...(value as Record<string, unknown>) })[key] = next;
  }
  return out ?? value;
}
