import { CARRIED_KEYWORDS } from "./schema-to-pydantic.js";

type Schema = Record<string, unknown>;

/**
 * Keywords the export carries into a pydantic model (`CARRIED_KEYWORDS`), plus `format`, which it carries in
 * `json_schema_extra`; `oneOf` comes back from pydantic as `anyOf` and `title` is pydantic's own, so neither
 * is compared.
 */
const COMPARED = new Set(
  [...CARRIED_KEYWORDS, "format"].filter((keyword) => keyword !== "oneOf" && keyword !== "title"),
);
const LOSSY = [
  "patternProperties",
  "allOf",
  "not",
  "if",
  "$ref",
  "dependentRequired",
  "propertyNames",
  "prefixItems",
  "uniqueItems",
];

const isRecord = (value: unknown): value is Schema =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * A JSON Schema in the shape both sides can be compared in: pydantic's `$ref`s inlined, titles dropped,
 * `Optional[X] = None` read back as an optional X, `additionalProperties: true` and empty `properties` /
 * `items` dropped, `type` dropped beside `enum` / `const`. Schemas the export marks as lossy become "lossy".
 */
export function toComparableSchema(input: unknown, defs: Schema = {}): unknown {
  if (!isRecord(input)) return input;
  let schema = input;
  if (typeof schema.$ref === "string" && schema.$ref.startsWith("#/$defs/")) {
    schema = { ...(defs[schema.$ref.slice("#/$defs/".length)] as Schema), ...omit(schema, ["$ref"]) };
  }
  if (LOSSY.some((keyword) => schema[keyword] !== undefined)) return "lossy";
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (!COMPARED.has(key)) continue;
    if (key === "properties" && isRecord(value)) {
      if (Object.keys(value).length === 0) continue;
      out.properties = Object.fromEntries(
        Object.entries(value).map(([name, entry]) => [name, toComparableSchema(entry, defs)]),
      );
    } else if (key === "items") {
      if (isRecord(value) && Object.keys(value).length > 0) out.items = toComparableSchema(value, defs);
    } else if (key === "anyOf" && Array.isArray(value)) {
      const members = value.filter(
        (member) => !(isRecord(member) && member.type === "null" && schema.default === null),
      );
      if (members.length === 1) Object.assign(out, toComparableSchema(members[0], defs));
      else out.anyOf = members.map((member) => toComparableSchema(member, defs));
    } else if (key === "additionalProperties") {
      if (value === false) out.additionalProperties = false;
      else if (isRecord(value) && Object.keys(value).length > 0)
        out.additionalProperties = toComparableSchema(value, defs);
    } else if (key === "default" && value === null && Array.isArray(schema.anyOf)) {
      continue;
    } else if (key === "required" && Array.isArray(value)) {
      const properties = isRecord(schema.properties) ? schema.properties : {};
      // A field with a default is optional in pydantic, whatever the spec's `required` says.
      const required = value.filter(
        (name) => !(isRecord(properties[name]) && properties[name].default !== undefined),
      );
      if (required.length > 0) out.required = [...required].sort();
    } else out[key] = value;
  }
  // pydantic writes a one-value Literal as `const`.
  if (Array.isArray(out.enum) && out.enum.length === 1) {
    out.const = out.enum[0];
    delete out.enum;
  }
  if (out.enum !== undefined || out.const !== undefined) delete out.type;
  if (Array.isArray(out.type)) {
    out.anyOf = out.type.map((type) => ({ type }));
    delete out.type;
  }
  return out;
}

function omit(schema: Schema, keys: string[]): Schema {
  return Object.fromEntries(Object.entries(schema).filter(([key]) => !keys.includes(key)));
}

/** pydantic's `model_json_schema()` output, comparable with the spec's schema. */
export function fromPydanticSchema(schema: Schema): unknown {
  return toComparableSchema(schema, isRecord(schema.$defs) ? schema.$defs : {});
}
