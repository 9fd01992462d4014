import type { JsonSchema } from "@waddle/protocol";

const DROPPED_KEYS = new Set(["$schema", "$id", "$comment"]);

export interface CompactJsonSchemaOptions {
  /**
   * Drop `pattern` beside a `format` (default false). zod's converter writes its own long regex for each
   * format it knows (`email`, `uuid`, `date-time`, …: up to ~100 tokens per field), and the format says
   * the same to a model. Only for schemas that zod wrote: a person who writes both means the pattern.
   */
  dropFormatPatterns?: boolean;
}

/**
 * A JSON Schema trimmed for the prompt, where every token is paid on every call: no
 * `$schema`/`$id`/`$comment`, no `additionalProperties: false` (zod adds it to every object), no
 * `propertyNames: {"type": "string"}` (JSON keys are strings anyway), no bound at the safe-integer limit
 * (zod puts `±9007199254740991` on every `z.int()`). Everything that helps the LLM fill args — types,
 * required, enums, defaults, descriptions, examples, real bounds — stays. Pure; the input is not modified.
 */
export function compactJsonSchema(schema: JsonSchema, options: CompactJsonSchemaOptions = {}): JsonSchema {
  return compactNode(schema, { dropFormatPatterns: options.dropFormatPatterns === true }) as JsonSchema;
}

/** Keys whose value maps names to schemas (a property may be called `$id`). */
const NAME_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions"]);
/** Keys whose value is data, not schema. */
const DATA_KEYS = new Set(["default", "examples", "enum", "const"]);

interface Walk {
  dropFormatPatterns: boolean;
}

function compactNode(node: unknown, walk: Walk, isNameMap = false): unknown {
  if (Array.isArray(node)) return node.map((item) => compactNode(item, walk));
  if (node === null || typeof node !== "object") return node;
  const record = node as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (isNameMap) {
      out[key] = compactNode(value, walk);
      continue;
    }
    if (isNoise(key, value, { record, walk })) continue;
    out[key] = DATA_KEYS.has(key) ? value : compactNode(value, walk, NAME_MAPS.has(key));
  }
  return out;
}

/** True for a keyword that tells a model nothing (see `compactJsonSchema`). */
function isNoise(key: string, value: unknown, at: { record: Record<string, unknown>; walk: Walk }): boolean {
  if (DROPPED_KEYS.has(key)) return true;
  switch (key) {
    case "additionalProperties":
      return value === false;
    case "minimum":
      return value === Number.MIN_SAFE_INTEGER;
    case "maximum":
      return value === Number.MAX_SAFE_INTEGER;
    case "propertyNames":
      return isStringTypeOnly(value);
    case "pattern":
      return at.walk.dropFormatPatterns && typeof at.record.format === "string";
    default:
      return false;
  }
}

function isStringTypeOnly(value: unknown): boolean {
  if (value === null || typeof value !== "object") return false;
  const keys = Object.keys(value);
  return keys.length === 1 && (value as { type?: unknown }).type === "string";
}
