const MAX_DEPTH = 6;

/**
 * A value shaped by a JSON Schema, for `llm` tools when the run is on the offline model (which cannot write
 * free text): `const`, `default`, the first `examples`/`enum` entry, else a neutral value of the type —
 * strings say they come from the offline model and quote the start of the prompt. Deterministic.
 */
export function getOfflineToolAnswer(schema: unknown, prompt: string, depth = 0): unknown {
  if (schema === null || typeof schema !== "object" || depth > MAX_DEPTH) return null;
  const node = schema as Record<string, unknown>;
  if ("const" in node) return node.const;
  if ("default" in node) return node.default;
  if (Array.isArray(node.examples) && node.examples.length > 0) return node.examples[0];
  if (Array.isArray(node.enum) && node.enum.length > 0) return node.enum[0];
  for (const key of ["anyOf", "oneOf"] as const) {
    const options = node[key];
    if (Array.isArray(options) && options.length > 0)
      return getOfflineToolAnswer(options[0], prompt, depth + 1);
  }
  const type = Array.isArray(node.type) ? node.type.find((item) => item !== "null") : node.type;
  switch (type) {
    case "object": {
      const properties = (node.properties ?? {}) as Record<string, unknown>;
      const required = new Set(
        Array.isArray(node.required) ? (node.required as string[]) : Object.keys(properties),
      );
      const out: Record<string, unknown> = {};
      for (const [name, child] of Object.entries(properties)) {
        if (required.has(name) && name !== "__proto__")
          out[name] = getOfflineToolAnswer(child, prompt, depth + 1);
      }
      return out;
    }
    case "array": {
      const minItems = typeof node.minItems === "number" ? node.minItems : 0;
      return Array.from({ length: minItems }, () => getOfflineToolAnswer(node.items, prompt, depth + 1));
    }
    case "string": {
      const text = `(offline model) ${prompt.replace(/\s+/g, " ").trim()}`;
      const max = typeof node.maxLength === "number" ? node.maxLength : 200;
      const min = typeof node.minLength === "number" ? node.minLength : 0;
      return text.slice(0, Math.max(max, 0)).padEnd(min, ".");
    }
    case "integer":
    case "number":
      return typeof node.minimum === "number"
        ? node.minimum
        : typeof node.exclusiveMinimum === "number"
          ? node.exclusiveMinimum + 1
          : 0;
    case "boolean":
      return false;
    case "null":
      return null;
    default:
      return {};
  }
}
