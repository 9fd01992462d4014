import type { JsonSchema } from "@waddle/protocol";

export const FIELD_TYPES = ["string", "number", "integer", "boolean", "object", "array", "any"] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** One property of an object schema, as the field-list editor shows it. */
export interface SchemaField {
  name: string;
  type: FieldType;
  required: boolean;
  description: string;
  /** `undefined`: no default. */
  default?: unknown;
  /** `undefined`: any value of the type. */
  enum?: unknown[];
  /** The properties of an `object` field. */
  fields: SchemaField[];
  /** The item schema of an `array` field (its `name` and `required` are unused). */
  items?: SchemaField;
  /** Keywords the editor does not model (format, minimum, pattern, …), kept verbatim. */
  extra: Record<string, unknown>;
}

/** An object schema as a field list, plus the root keywords the list does not cover. */
export interface SchemaModel {
  fields: SchemaField[];
  extra: Record<string, unknown>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function getFieldType(schema: Record<string, unknown>): FieldType | undefined {
  const type = schema.type;
  if (typeof type === "string") {
    return (FIELD_TYPES as readonly string[]).includes(type) && type !== "any"
      ? (type as FieldType)
      : undefined;
  }
  if (type !== undefined) return undefined;
  if (isRecord(schema.properties)) return "object";
  if (isRecord(schema.items)) return "array";
  return "any";
}

/** The keywords a field of this type models; everything else stays in `extra`. */
function getModelledKeys(type: FieldType): Set<string> {
  const keys = new Set(["type", "description", "default", "enum"]);
  if (type === "object") ["properties", "required"].forEach((key) => keys.add(key));
  if (type === "array") keys.add("items");
  return keys;
}

/** The fields of an object schema, and any `required` names without a property (kept, not modelled). */
function getFieldList(schema: Record<string, unknown>): { fields: SchemaField[]; orphans: string[] } {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required)
    ? schema.required.filter((name): name is string => typeof name === "string")
    : [];
  const fields = Object.entries(properties).map(([name, property]) =>
    getFieldFromSchema({ name, schema: property, required: required.includes(name) }),
  );
  return { fields, orphans: required.filter((name) => !(name in properties)) };
}

function getObjectParts(
  fields: readonly SchemaField[],
  orphans: unknown,
): { properties: JsonSchema; required?: string[] } {
  const properties: JsonSchema = {};
  for (const field of fields) properties[field.name] = getSchemaFromField(field);
  const required = [
    ...fields.filter((field) => field.required).map((field) => field.name),
    ...(Array.isArray(orphans) ? orphans.filter((name): name is string => typeof name === "string") : []),
  ];
  return required.length > 0 ? { properties, required } : { properties };
}

/** A field from a property schema. Types the editor cannot express (unions, …) become `any` + `extra`. */
export function getFieldFromSchema(options: {
  name: string;
  schema: unknown;
  required: boolean;
}): SchemaField {
  const schema = isRecord(options.schema) ? options.schema : {};
  const knownType = getFieldType(schema);
  const type = knownType ?? "any";
  const modelled = getModelledKeys(type);
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) if (!modelled.has(key)) extra[key] = value;
  if (knownType === undefined) extra.type = schema.type;
  const field: SchemaField = {
    name: options.name,
    type,
    required: options.required,
    description: typeof schema.description === "string" ? schema.description : "",
    fields: [],
    extra,
  };
  if (typeof schema.description !== "string" && "description" in schema)
    extra.description = schema.description;
  if ("default" in schema) field.default = schema.default;
  if (Array.isArray(schema.enum)) field.enum = [...schema.enum];
  else if ("enum" in schema) extra.enum = schema.enum;
  if (type === "object") {
    const { fields, orphans } = getFieldList(schema);
    field.fields = fields;
    if (orphans.length > 0) extra.required = orphans;
  }
  if (type === "array" && isRecord(schema.items)) {
    field.items = getFieldFromSchema({ name: "", schema: schema.items, required: false });
  } else if (type === "array" && "items" in schema) extra.items = schema.items;
  return field;
}

/** The property schema of a field. */
export function getSchemaFromField(field: SchemaField): JsonSchema {
  const { required: orphans, ...extra } = field.extra;
  const schema: JsonSchema = { ...extra };
  if (field.type !== "any") schema.type = field.type;
  else if (orphans !== undefined) schema.required = orphans;
  if (field.description !== "") schema.description = field.description;
  if (field.enum !== undefined) schema.enum = field.enum;
  if (field.default !== undefined) schema.default = field.default;
  if (field.type === "object") Object.assign(schema, getObjectParts(field.fields, orphans));
  if (field.type === "array" && field.items) schema.items = getSchemaFromField(field.items);
  return schema;
}

/** The field list of an object schema (a tool's args or out schema). */
export function getSchemaModel(schema: JsonSchema): SchemaModel {
  const { fields, orphans } = getFieldList(schema);
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key !== "type" && key !== "properties" && key !== "required") extra[key] = value;
  }
  if (orphans.length > 0) extra.required = orphans;
  return { fields, extra };
}

/** The object schema of a field list; `getSchemaModel` of the result gives the same model back. */
export function getSchemaFromModel(model: SchemaModel): JsonSchema {
  const { required: orphans, ...extra } = model.extra;
  return { type: "object", ...extra, ...getObjectParts(model.fields, orphans) };
}

/** A blank field of a type. */
export function createField(options: { name: string; type?: FieldType }): SchemaField {
  const type = options.type ?? "string";
  const field: SchemaField = {
    name: options.name,
    type,
    required: false,
    description: "",
    fields: [],
    extra: {},
  };
  if (type === "array") field.items = createField({ name: "", type: "string" });
  return field;
}
