import type { JsonSchema } from "@waddle/protocol";

/** What the placeholder check knows of one arg: from the tool's JSON Schema (docs/repair-and-arg-fill.md). */
export interface FieldInfo {
  name: string;
  description?: string;
  /** The JSON Schema `type` (first one when it is a list). */
  type?: string;
  /** `enum` / `const` values: a placeholder-looking value that is one of them is a real value. */
  options?: readonly unknown[];
}

/** Words weak models write when they do not know a value (compared lower-cased and trimmed). */
const PLACEHOLDER_WORDS = new Set([
  "unknown",
  "n/a",
  "tbd",
  "tbc",
  "?",
  "??",
  "???",
  "null",
  "undefined",
  "none provided",
  "not provided",
  "placeholder",
  "fill_value",
  "fill value",
  "...",
  "…",
  "<auto>",
  "auto_fill",
  "to be determined",
]);

/** `<auto>`, `<FILL_VALUE>`, `<query>`, `{{query}}`, `[insert query]`, `${query}`. */
const PLACEHOLDER_SHAPES =
  /^(?:<[^<>\n]{1,60}>|\{\{[^{}\n]{0,60}\}\}|\$\{[^{}\n]{0,60}\}|\[(?:insert|your|fill|enter)[^\]\n]{0,60}\])$/i;

/**
 * True when an arg value is a stand-in rather than a value: the words weak models write for "I do not know"
 * (`unknown`, `n/a`, `TBD`, `?`, `null` as a string, …), template shapes (`<auto>`, `<FILL_VALUE>`,
 * `{{x}}`), or an echo of the field itself (its description, its name, its type name). Case-insensitive.
 * An empty string is not one: a schema that needs text says so (`minLength`).
 * A value the field's schema lists (`enum`, `const`) is never a placeholder.
 */
export function isPlaceholderValue(value: unknown, field?: FieldInfo): boolean {
  if (typeof value !== "string") return false;
  const text = value.trim();
  // Placeholders are short; a description echo is compared below.
  if (text.length > 200) return false;
  if (field?.options?.includes(value) === true) return false;
  const lower = text.toLowerCase();
  if (PLACEHOLDER_WORDS.has(lower) || PLACEHOLDER_SHAPES.test(text)) return true;
  if (field === undefined) return false;
  if (field.type !== undefined && lower === field.type) return true;
  const name = field.name.toLowerCase();
  if (lower === name || lower === name.replace(/_/g, " ")) return true;
  const description = field.description === undefined ? undefined : normalizeText(field.description);
  return description !== undefined && description.length > 0 && normalizeText(text) === description;
}

/** What stands in for an answer that was never written: `<answer>`, `{{answer}}`, `TBD`, `null`, `...`. */
const ANSWER_PLACEHOLDERS = new Set([
  "...",
  "…",
  "tbd",
  "tbc",
  "null",
  "undefined",
  "placeholder",
  "fill_value",
]);

/**
 * True when a final answer is a stand-in (`<answer>`, `TBD`, `null`, `...`). Narrower than
 * `isPlaceholderValue`: `unknown`, `n/a` or `?` can be what the model means to answer.
 */
export function isPlaceholderAnswer(text: string): boolean {
  const trimmed = text.trim();
  if (trimmed.length > 64) return false;
  return ANSWER_PLACEHOLDERS.has(trimmed.toLowerCase()) || PLACEHOLDER_SHAPES.test(trimmed);
}

function normalizeText(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[.:;!]+$/, "")
    .replace(/\s+/g, " ");
}

/** A field as the placeholder check and arg-fill messages see it, from the tool's compact args schema. */
export function getFieldInfo(argsSchema: JsonSchema, name: string): FieldInfo {
  const properties = (argsSchema as { properties?: Record<string, unknown> }).properties;
  const property = properties?.[name];
  const field: FieldInfo = { name };
  if (typeof property !== "object" || property === null) return field;
  const schema = property as {
    description?: unknown;
    type?: unknown;
    enum?: unknown;
    const?: unknown;
    anyOf?: unknown;
  };
  if (typeof schema.description === "string") field.description = schema.description;
  const type = Array.isArray(schema.type) ? (schema.type as unknown[])[0] : schema.type;
  if (typeof type === "string") field.type = type;
  const options = getOptions(schema);
  if (options.length > 0) field.options = options;
  return field;
}

function getOptions(schema: { enum?: unknown; const?: unknown; anyOf?: unknown }): unknown[] {
  if (Array.isArray(schema.enum)) return schema.enum as unknown[];
  if (schema.const !== undefined) return [schema.const];
  if (!Array.isArray(schema.anyOf)) return [];
  return (schema.anyOf as unknown[]).flatMap((option) =>
    typeof option === "object" && option !== null ? getOptions(option as typeof schema) : [],
  );
}

/** Where an args object holds placeholders: its own fields, and the paths of nested ones. */
export interface PlaceholderScan {
  /** Top-level fields whose value is a placeholder. */
  fields: string[];
  /** Nested values (`filters.city`, `ids[2]`) that are placeholders. */
  nested: string[];
}

/**
 * Finds placeholder values in an LLM's args (top-level fields checked against their schema, nested
 * strings against the plain list). Returns undefined when there are none: the usual case allocates nothing.
 */
export function findPlaceholders(
  args: Readonly<Record<string, unknown>>,
  argsSchema: JsonSchema,
): PlaceholderScan | undefined {
  let scan: PlaceholderScan | undefined;
  for (const name in args) {
    const value = args[name];
    if (typeof value === "string") {
      if (value.length <= 200 && isPlaceholderValue(value, getFieldInfo(argsSchema, name))) {
        (scan ??= { fields: [], nested: [] }).fields.push(name);
      }
    } else if (typeof value === "object" && value !== null) {
      const nested = findNested(value, name, 0);
      if (nested.length > 0) (scan ??= { fields: [], nested: [] }).nested.push(...nested);
    }
  }
  return scan;
}

function findNested(value: unknown, path: string, depth: number): string[] {
  if (depth > 6) return [];
  if (typeof value === "string") return isPlaceholderValue(value) ? [path] : [];
  if (typeof value !== "object" || value === null) return [];
  const found: string[] = [];
  if (Array.isArray(value)) {
    value.forEach((item, index) => found.push(...findNested(item, `${path}[${index}]`, depth + 1)));
  } else {
    for (const [key, item] of Object.entries(value))
      found.push(...findNested(item, `${path}.${key}`, depth + 1));
  }
  return found;
}
