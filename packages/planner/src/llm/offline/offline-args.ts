import type { Observed } from "./offline-progress.js";

type Schema = Record<string, unknown>;

/** Property names whose value is the user's own words. */
const FREE_TEXT_NAMES =
  /^(text|query|question|topic|prompt|request|input|q|search|search_query|message|instruction|instructions|task|goal|description|problem|issue|subject_matter|user_query|user_input)$|_(query|question|text|prompt|request)$/i;
/** Property names that hold a person's name, which the query may mention ("Email Dana that …"). */
const PERSON_NAMES = /^(name|person|contact|recipient|first_name|full_name|assignee|username|who)$|_name$/i;
const CALENDAR_WORDS = new Set(
  "Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March April May June July August September October November December".split(
    " ",
  ),
);

export interface FillArgsInput {
  argsSchema: Schema;
  query: string;
  /** Newest first. */
  observations: readonly Observed[];
  /** Also fill required fields that have no source, with a value of the right type. */
  forceRequired?: boolean;
}

/**
 * Fills a tool's args from, in order: earlier observations (same property name, top level or one level
 * down, newest first, type-checked), the schema default, an enum value the query mentions (else the
 * first), the query for free-text fields, a name the query mentions, the schema's examples. A required
 * string without a source gets the query; other required fields get a typed placeholder with `forceRequired`.
 */
export function fillOfflineArgs(input: FillArgsInput): Record<string, unknown> {
  const properties = asSchema(input.argsSchema.properties) ?? {};
  const required = new Set(
    Array.isArray(input.argsSchema.required) ? (input.argsSchema.required as string[]) : [],
  );
  const args: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(properties)) {
    const schema = asSchema(raw) ?? {};
    const value =
      getValue({ name, schema, input }) ??
      (required.has(name) ? getRequiredFallback(schema, input) : undefined);
    if (value !== undefined) args[name] = value;
  }
  return args;
}

function getValue(options: { name: string; schema: Schema; input: FillArgsInput }): unknown {
  const { name, schema, input } = options;
  const observed = fromObservations(name, schema, input.observations);
  if (observed !== undefined) return observed;
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return pickEnum(schema.enum, input.query);
  if (acceptsString(schema) && FREE_TEXT_NAMES.test(name)) return clip(input.query, schema);
  if (acceptsString(schema) && PERSON_NAMES.test(name)) {
    const mentioned = findMentionedName(input.query);
    if (mentioned !== undefined) return mentioned;
  }
  const examples = Array.isArray(schema.examples)
    ? schema.examples
    : schema.example === undefined
      ? []
      : [schema.example];
  return examples.find((example) => matchesSchema(example, schema));
}

function fromObservations(name: string, schema: Schema, observations: readonly Observed[]): unknown {
  for (const { value } of observations) {
    if (!isRecord(value)) continue;
    if (name in value && matchesSchema(value[name], schema)) return value[name];
    for (const nested of Object.values(value)) {
      if (isRecord(nested) && name in nested && matchesSchema(nested[name], schema)) return nested[name];
    }
  }
  return undefined;
}

function getRequiredFallback(schema: Schema, input: FillArgsInput): unknown {
  const type = getTypes(schema)[0];
  if (type === "string") return getStringFallback(schema, input.query);
  if (!input.forceRequired) return undefined;
  switch (type) {
    case "number":
    case "integer":
      return typeof schema.minimum === "number" ? schema.minimum : 0;
    case "boolean":
      return false;
    case "array":
      return [];
    case "object":
      return fillOfflineArgs({ ...input, argsSchema: schema, forceRequired: true });
    case "null":
      return null;
    default:
      return clip(input.query, schema);
  }
}

/** The query, unless the field has a format the query cannot have (an address is not a sentence). */
function getStringFallback(schema: Schema, query: string): string {
  if (schema.format === "email") return "someone@example.com";
  if (schema.format === "uri" || schema.format === "url") return "https://example.com/";
  return clip(query, schema);
}

function pickEnum(values: readonly unknown[], query: string): unknown {
  const mentioned = values.find(
    (value) => typeof value === "string" && new RegExp(`\\b${escapeRegExp(value)}\\b`, "i").test(query),
  );
  return mentioned ?? values[0];
}

function findMentionedName(query: string): string | undefined {
  const words = query.split(/\s+/).map((word) => word.replace(/[^\p{L}'-]/gu, ""));
  return words.slice(1).find((word) => /^\p{Lu}\p{Ll}+$/u.test(word) && !CALENDAR_WORDS.has(word));
}

/** A shallow JSON Schema check: type (or types), enum and const; array items by their first element. */
export function matchesSchema(value: unknown, schema: Schema): boolean {
  if (value === undefined) return false;
  if (Array.isArray(schema.enum) && !schema.enum.some((option) => option === value)) return false;
  if (schema.const !== undefined && schema.const !== value) return false;
  const variants = [schema.anyOf, schema.oneOf].find(Array.isArray) as unknown[] | undefined;
  if (variants !== undefined)
    return variants.some((variant) => matchesSchema(value, asSchema(variant) ?? {}));
  const types = getTypes(schema);
  if (types.length > 0 && !types.some((type) => hasType(value, type))) return false;
  const items = asSchema(schema.items);
  if (Array.isArray(value) && items !== undefined && value.length > 0) return matchesSchema(value[0], items);
  return true;
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "integer":
      return Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "array":
      return Array.isArray(value);
    case "object":
      return isRecord(value);
    case "null":
      return value === null;
    default:
      return true;
  }
}

function getTypes(schema: Schema): string[] {
  if (typeof schema.type === "string") return [schema.type];
  return Array.isArray(schema.type)
    ? schema.type.filter((type): type is string => typeof type === "string")
    : [];
}

function acceptsString(schema: Schema): boolean {
  const types = getTypes(schema);
  return types.length === 0 ? schema.enum === undefined : types.includes("string");
}

function clip(text: string, schema: Schema): string {
  return typeof schema.maxLength === "number" ? text.slice(0, schema.maxLength) : text;
}

function asSchema(value: unknown): Schema | undefined {
  return isRecord(value) ? value : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
