import { redactText } from "../secrets/redact-text.js";

export interface PreviewOptions {
  /** Rough upper bound on the JSON size of the preview, in characters. */
  maxChars: number;
  /**
   * Strings to hide (toolContext values): a string equal to one becomes `"[redacted]"`, and occurrences of
   * the longer ones inside other strings are replaced too.
   */
  redact?: ReadonlySet<string>;
  /** Deepest nesting kept; deeper values become `"[depth]"`. Default 8. */
  maxDepth?: number;
}

const MIN_STRING_KEEP = 16;

interface Walk {
  budget: number;
  readonly redact: ReadonlySet<string> | undefined;
  readonly maxDepth: number;
  /** Objects on the current path (cycle detection); an array: depth is small and a Set costs more. */
  readonly path: object[];
}

/**
 * A bounded, JSON-safe copy of a value for events: long strings end with `…[+N chars]`, long arrays and
 * objects end with a `…[+N items]` / `"…": "+N keys"` marker, non-JSON values become strings, cycles
 * `"[circular]"`. One pass; values under budget come back structurally equal.
 */
export function createPreview(value: unknown, options: PreviewOptions): unknown {
  const budget = Math.max(options.maxChars, MIN_STRING_KEEP);
  const redact = options.redact !== undefined && options.redact.size > 0 ? options.redact : undefined;
  const maxDepth = options.maxDepth ?? 8;
  const quick = quickCopy(value, { budget, redact, maxDepth }, 0);
  return quick === NOT_QUICK ? walkPreview(value, options) : quick;
}

/** `createPreview` without its fast path: the full walk, for any value (exported for tests). */
export function walkPreview(value: unknown, options: PreviewOptions): unknown {
  const walk: Walk = {
    budget: Math.max(options.maxChars, MIN_STRING_KEEP),
    redact: options.redact !== undefined && options.redact.size > 0 ? options.redact : undefined,
    maxDepth: options.maxDepth ?? 8,
    path: [],
  };
  return previewValue(value, walk, 0);
}

/** Cuts a string to `maxChars`, marking how much was dropped. */
export function truncateText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const keep = Math.max(0, maxChars);
  return `${text.slice(0, keep)}…[+${text.length - keep} chars]`;
}

/** What `quickCopy` answers for a value that needs the full walk. */
const NOT_QUICK: unique symbol = Symbol("notQuick");

type QuickWalk = Omit<Walk, "path">;

/**
 * Events preview most args and observations every step, and most are small: plain objects and arrays of
 * short strings, finite numbers, booleans and null. This copies those in one pass without the full walk's
 * bookkeeping (the walk state, the path array for cycles), and gives `NOT_QUICK` as soon as a value needs
 * more care (a cut, a marker, a cycle, a Date, a Map, undefined, a `__proto__` key, anything deeper than
 * `maxDepth`); the budget is counted exactly as `previewValue` counts it, so both give the same preview.
 */
function quickCopy(value: unknown, walk: QuickWalk, depth: number): unknown {
  switch (typeof value) {
    case "string": {
      const text = walk.redact === undefined ? value : redactText(value, walk.redact);
      if (text.length > Math.max(walk.budget, MIN_STRING_KEEP)) return NOT_QUICK;
      walk.budget -= text.length + 2;
      return text;
    }
    case "number":
      walk.budget -= 8;
      return Number.isFinite(value) ? value : NOT_QUICK;
    case "boolean":
      walk.budget -= 5;
      return value;
    case "object":
      if (value === null) {
        walk.budget -= 4;
        return null;
      }
      if (depth >= walk.maxDepth) return NOT_QUICK;
      if (Array.isArray(value)) return quickArray(value, walk, depth);
      return isPlainObject(value) ? quickRecord(value as Record<string, unknown>, walk, depth) : NOT_QUICK;
    default:
      return NOT_QUICK;
  }
}

function quickArray(items: readonly unknown[], walk: QuickWalk, depth: number): unknown {
  walk.budget -= 2;
  const out: unknown[] = [];
  for (let index = 0; index < items.length; index += 1) {
    const item = items[index];
    if (walk.budget <= 0 || item === undefined) return NOT_QUICK;
    const copy = quickCopy(item, walk, depth + 1);
    if (copy === NOT_QUICK) return NOT_QUICK;
    out.push(copy);
    walk.budget -= 1;
  }
  return out;
}

function quickRecord(record: Record<string, unknown>, walk: QuickWalk, depth: number): unknown {
  walk.budget -= 2;
  const out: Record<string, unknown> = {};
  // for…in with an own-key check visits what Object.keys lists, without allocating the key array.
  for (const key in record) {
    if (!hasOwn.call(record, key)) continue;
    const value = record[key];
    if (walk.budget <= 0 || value === undefined || key === "__proto__") return NOT_QUICK;
    walk.budget -= key.length + 4;
    const copy = quickCopy(value, walk, depth + 1);
    if (copy === NOT_QUICK) return NOT_QUICK;
    out[key] = copy;
  }
  return out;
}

const hasOwn = Object.prototype.hasOwnProperty;

function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

function previewValue(value: unknown, walk: Walk, depth: number): unknown {
  switch (typeof value) {
    case "string":
      return previewString(value, walk);
    case "number":
      walk.budget -= 8;
      return Number.isFinite(value) ? value : String(value);
    case "boolean":
      walk.budget -= 5;
      return value;
    case "bigint":
      return previewString(`${value.toString()}n`, walk);
    case "undefined":
      walk.budget -= 4;
      return null;
    case "function":
      return previewString(`[function ${value.name || "anonymous"}]`, walk);
    case "symbol":
      return previewString(value.toString(), walk);
    default:
      return previewObject(value, walk, depth);
  }
}

function previewString(text: string, walk: Walk): string {
  if (walk.redact !== undefined) text = redactText(text, walk.redact);
  const allowed = Math.max(walk.budget, MIN_STRING_KEEP);
  const out = truncateText(text, allowed);
  walk.budget -= out.length + 2;
  return out;
}

function previewObject(value: unknown, walk: Walk, depth: number): unknown {
  if (value === null) {
    walk.budget -= 4;
    return null;
  }
  const object = value as object;
  if (object instanceof Date)
    return previewString(Number.isNaN(object.getTime()) ? "Invalid Date" : object.toISOString(), walk);
  if (object instanceof Error)
    return previewObject({ name: object.name, message: object.message }, walk, depth);
  if (depth >= walk.maxDepth) return previewString("[depth]", walk);
  if (walk.path.includes(object)) return previewString("[circular]", walk);
  walk.path.push(object);
  try {
    if (Array.isArray(object)) return previewArray(object, walk, depth);
    if (object instanceof Map)
      return previewEntries(
        [...object.entries()].map(([key, item]) => [String(key), item]),
        walk,
        depth,
      );
    if (object instanceof Set) return previewArray([...object], walk, depth);
    const toJson = (object as { toJSON?: unknown }).toJSON;
    if (typeof toJson === "function")
      return previewValue((toJson as () => unknown).call(object), walk, depth + 1);
    return previewRecord(object as Record<string, unknown>, walk, depth);
  } finally {
    walk.path.pop();
  }
}

function previewArray(items: readonly unknown[], walk: Walk, depth: number): unknown[] {
  walk.budget -= 2;
  const out: unknown[] = [];
  for (let index = 0; index < items.length; index += 1) {
    if (walk.budget <= 0) {
      out.push(`…[+${items.length - index} items]`);
      break;
    }
    out.push(previewValue(items[index], walk, depth + 1));
    walk.budget -= 1;
  }
  return out;
}

function previewRecord(record: Record<string, unknown>, walk: Walk, depth: number): Record<string, unknown> {
  walk.budget -= 2;
  const out: Record<string, unknown> = {};
  const keys = Object.keys(record);
  for (let index = 0; index < keys.length; index += 1) {
    const key = keys[index] as string;
    const value = record[key];
    if (value === undefined) continue;
    if (walk.budget <= 0) {
      out["…"] = `+${keys.length - index} keys`;
      break;
    }
    walk.budget -= key.length + 4;
    setData(out, key, previewValue(value, walk, depth + 1));
  }
  return out;
}

/** Assigns as plain data: a key named __proto__ must never set a prototype. */
function setData(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__")
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}

function previewEntries(
  entries: readonly (readonly [string, unknown])[],
  walk: Walk,
  depth: number,
): Record<string, unknown> {
  walk.budget -= 2;
  const out: Record<string, unknown> = {};
  for (let index = 0; index < entries.length; index += 1) {
    const entry = entries[index] as readonly [string, unknown];
    if (entry[1] === undefined) continue;
    if (walk.budget <= 0) {
      out["…"] = `+${entries.length - index} keys`;
      break;
    }
    const key = entry[0];
    walk.budget -= key.length + 4;
    setData(out, key, previewValue(entry[1], walk, depth + 1));
  }
  return out;
}
