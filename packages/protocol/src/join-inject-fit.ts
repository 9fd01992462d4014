import type { JsonSchema } from "./agent-spec.js";
import type { InjectSource } from "./names.js";

/** The JSON type each injection source delivers (seed 004): lists of records, or counts. */
export const INJECT_SOURCE_TYPES = {
  $results: "array",
  $branches: "array",
  $failures: "array",
  $success_count: "integer",
  $failure_count: "integer",
  $expect: "integer",
} as const satisfies Record<InjectSource, "array" | "integer">;

/**
 * Whether a join tool's args schema takes an injected value under `arg`:
 * - `declared`: a property whose type takes the source's value;
 * - `undeclared`: not a property, but the schema lets other keys through (the tool may ignore it);
 * - `refused`: not a property and `additionalProperties: false` (validation refuses every run);
 * - `type_mismatch`: the property (or `additionalProperties`) wants another type.
 */
export type JoinInjectFit =
  | { fit: "declared" }
  | { fit: "undeclared" }
  | { fit: "refused" }
  | { fit: "type_mismatch"; expected: string; delivered: string };

/** How `source` fits argument `arg` of a join tool whose args schema is `argsSchema`. */
export function getJoinInjectFit(input: {
  argsSchema: JsonSchema;
  arg: string;
  source: InjectSource;
}): JoinInjectFit {
  const { argsSchema, arg, source } = input;
  const properties = getProperties(argsSchema);
  const declared = Object.hasOwn(properties, arg);
  const field = declared ? properties[arg] : getPatternField(argsSchema, arg);
  if (field === undefined) {
    const additional = argsSchema.additionalProperties;
    if (additional === false) return { fit: "refused" };
    if (!isRecord(additional)) return { fit: "undeclared" };
    const mismatch = getTypeMismatch(additional, source);
    return mismatch ?? { fit: "undeclared" };
  }
  if (field === false) return { fit: "refused" };
  if (!isRecord(field)) return { fit: "declared" };
  return getTypeMismatch(field, source) ?? { fit: "declared" };
}

/** True when the argument is declared and takes the source's value. */
export function isJoinInjectFit(input: {
  argsSchema: JsonSchema;
  arg: string;
  source: InjectSource;
}): boolean {
  return getJoinInjectFit(input).fit === "declared";
}

/** What a source delivers, in words: "an array of records" or "an integer". */
export function describeInjectSource(source: InjectSource): string {
  return INJECT_SOURCE_TYPES[source] === "array" ? "an array of records" : "an integer";
}

/** Argument names that implicitly mean a source (seed 004's own example: `results`, `expect`). */
const CONVENTIONAL_ARGS: ReadonlyArray<readonly [string, InjectSource]> = [
  ["results", "$results"],
  ["branches", "$branches"],
  ["failures", "$failures"],
  ["success_count", "$success_count"],
  ["failure_count", "$failure_count"],
  ["expect", "$expect"],
];

/**
 * The injection a new join starts with: only arguments the tool declares and whose type takes the value.
 * Conventional names first (`results` ← `$results`, `expect` ← `$expect`, …); then, when nothing takes
 * `$results` yet, the first array argument of records (required ones first). Empty when nothing fits.
 */
export function getDefaultJoinInject(argsSchema: JsonSchema): Record<string, InjectSource> {
  const inject: Record<string, InjectSource> = {};
  const fits = (arg: string, source: InjectSource) => isJoinInjectFit({ argsSchema, arg, source });
  const properties = getProperties(argsSchema);
  for (const [arg, source] of CONVENTIONAL_ARGS) {
    if (Object.hasOwn(properties, arg) && fits(arg, source)) inject[arg] = source;
  }
  if (Object.values(inject).includes("$results")) return inject;
  const required = new Set(Array.isArray(argsSchema.required) ? (argsSchema.required as unknown[]) : []);
  const names = Object.keys(properties).filter((name) => !(name in inject));
  const ordered = [
    ...names.filter((name) => required.has(name)),
    ...names.filter((name) => !required.has(name)),
  ];
  const target = ordered.find(
    (name) => fits(name, "$results") && getSchemaTypes(properties[name])?.has("array"),
  );
  if (target !== undefined) inject[target] = "$results";
  return inject;
}

/** Required arguments of the join tool that neither its fixed args nor an injection supply. */
export function getUnsuppliedJoinArgs(input: {
  argsSchema: JsonSchema;
  args: Record<string, unknown>;
  inject: Record<string, string>;
}): string[] {
  const { argsSchema, args, inject } = input;
  if (!Array.isArray(argsSchema.required)) return [];
  const properties = getProperties(argsSchema);
  return argsSchema.required.filter(
    (name): name is string =>
      typeof name === "string" &&
      !(name in args) &&
      !(name in inject) &&
      !(isRecord(properties[name]) && properties[name].default !== undefined),
  );
}

function getProperties(schema: JsonSchema): Record<string, unknown> {
  return isRecord(schema.properties) ? schema.properties : {};
}

function getPatternField(schema: JsonSchema, arg: string): unknown {
  if (!isRecord(schema.patternProperties)) return undefined;
  for (const [pattern, field] of Object.entries(schema.patternProperties)) {
    try {
      if (new RegExp(pattern, "u").test(arg)) return field;
    } catch {
      // a pattern JavaScript cannot read: the schema check reports it
    }
  }
  return undefined;
}

function getTypeMismatch(field: Record<string, unknown>, source: InjectSource): JoinInjectFit | undefined {
  const types = getSchemaTypes(field);
  if (types === undefined) return undefined;
  const wanted = INJECT_SOURCE_TYPES[source];
  const delivered = describeInjectSource(source);
  const accepted = wanted === "integer" ? types.has("integer") || types.has("number") : types.has("array");
  if (!accepted) return { fit: "type_mismatch", expected: describeTypes(types), delivered };
  if (wanted === "array" && isRecord(field.items)) {
    const items = getSchemaTypes(field.items);
    if (items !== undefined && !items.has("object")) {
      return { fit: "type_mismatch", expected: `an array of ${describeTypes(items)} items`, delivered };
    }
  }
  return undefined;
}

/** The JSON types a schema allows, or `undefined` when it does not say (any value). */
function getSchemaTypes(schema: unknown): Set<string> | undefined {
  if (schema === true) return undefined;
  if (!isRecord(schema)) return new Set();
  const { type } = schema;
  if (typeof type === "string") return new Set([type]);
  if (Array.isArray(type)) return new Set(type.filter((item): item is string => typeof item === "string"));
  if ("const" in schema) return new Set([getValueType(schema.const)]);
  if (Array.isArray(schema.enum)) return new Set(schema.enum.map(getValueType));
  const branches = Array.isArray(schema.anyOf)
    ? schema.anyOf
    : Array.isArray(schema.oneOf)
      ? schema.oneOf
      : [];
  if (branches.length === 0) return undefined;
  const union = new Set<string>();
  for (const branch of branches) {
    const types = getSchemaTypes(branch);
    if (types === undefined) return undefined;
    for (const item of types) union.add(item);
  }
  return union;
}

function getValueType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function describeTypes(types: ReadonlySet<string>): string {
  return types.size === 0 ? "no value" : [...types].join(" or ");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
