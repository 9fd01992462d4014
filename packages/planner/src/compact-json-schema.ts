import type { JsonSchema } from "@waddle/protocol";

const DROPPED_KEYS = new Set(["$schema", "$id", "$comment"]);

/**
 * A JSON Schema trimmed for the prompt: no `$schema`/`$id`/`$comment` and no `additionalProperties: false`
 * (zod adds it to every object). Everything that helps the LLM fill args — types, required, enums,
 * defaults, descriptions, examples, bounds — stays. Pure; the input is not modified.
 */
export function compactJsonSchema(schema: JsonSchema): JsonSchema {
  return compactNode(schema) as JsonSchema;
}

/** Keys whose value maps names to schemas (a property may be called `$id`). */
const NAME_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions"]);
/** Keys whose value is data, not schema. */
const DATA_KEYS = new Set(["default", "examples", "enum", "const"]);

function compactNode(node: unknown, isNameMap = false): unknown {
  if (Array.isArray(node)) return node.map((item) => compactNode(item));
  if (node === null || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (isNameMap) {
      out[key] = compactNode(value);
      continue;
    }
    if (DROPPED_KEYS.has(key)) continue;
    if (key === "additionalProperties" && value === false) continue;
    out[key] = DATA_KEYS.has(key) ? value : compactNode(value, NAME_MAPS.has(key));
  }
  return out;
}
