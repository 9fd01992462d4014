import type { JsonSchema } from "@waddle/protocol";
import { getNumberProblem } from "../../schema/get-number-problem.js";
import { parseValueText } from "../../schema/value-text.js";
import { parseJson, type ParseResult } from "@waddle/protocol";

/**
 * A form for a tool's args, generated from its JSON Schema (the approver's "edit" form): one field per
 * property, every value held as text while typed, and read back into typed args with the schema's checks
 * (required, type, enum, min/max, lengths, pattern, item counts) before anything is sent.
 */

export type ArgsFieldKind = "string" | "text" | "number" | "integer" | "boolean" | "enum" | "lines" | "json";
type ItemType = "string" | "number" | "integer";

export interface ArgsFormField {
  name: string;
  kind: ArgsFieldKind;
  required: boolean;
  description: string;
  /** `enum`: the allowed values (the form holds the index). */
  options?: readonly unknown[];
  /** `lines`: what each line is. */
  itemType?: ItemType;
  /** `json`: the JSON type the value must have (null: any). */
  jsonType?: "object" | "array" | null;
  schema: Readonly<Record<string, unknown>>;
}

/** Every value as the form holds it: text, `"true"`/`"false"`, or an enum index; `""` is empty. */
export type ArgsFormValues = Readonly<Record<string, string>>;

export type ArgsFormResult =
  { ok: true; args: Record<string, unknown> } | { ok: false; errors: Readonly<Record<string, string>> };

const MULTILINE_NAMES = /^(body|content|text|message|prompt|description|note|notes|markdown|html)$/i;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The schema's main type: the first that is not "null" when it lists several. */
function getType(schema: Record<string, unknown>): string | undefined {
  const type = schema.type;
  if (typeof type === "string") return type;
  if (Array.isArray(type))
    return type.find((entry): entry is string => typeof entry === "string" && entry !== "null");
  if (isRecord(schema.properties)) return "object";
  if (isRecord(schema.items)) return "array";
  return undefined;
}

function getKind(
  schema: Record<string, unknown>,
  name: string,
  value: unknown,
): Omit<ArgsFormField, "name" | "required" | "description" | "schema"> {
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return { kind: "enum", options: schema.enum };
  const type = getType(schema);
  switch (type) {
    case "string": {
      const long =
        MULTILINE_NAMES.test(name) ||
        (typeof schema.maxLength === "number" && schema.maxLength > 200) ||
        (typeof value === "string" && (value.includes("\n") || value.length > 80));
      return { kind: long ? "text" : "string" };
    }
    case "number":
    case "integer":
    case "boolean":
      return { kind: type };
    case "array": {
      const items = isRecord(schema.items) ? schema.items : {};
      const itemType = getType(items);
      if (
        (itemType === "string" || itemType === "number" || itemType === "integer") &&
        !Array.isArray(items.enum)
      )
        return { kind: "lines", itemType };
      return { kind: "json", jsonType: "array" };
    }
    case "object":
      return { kind: "json", jsonType: "object" };
    default:
      return { kind: "json", jsonType: null };
  }
}

/** True when the schema lists properties to make fields of; otherwise the whole args are one JSON box. */
export function hasArgsFields(schema: JsonSchema): boolean {
  return isRecord(schema.properties) && Object.keys(schema.properties).length > 0;
}

/** The form's fields, in the schema's property order; `args` (the proposed ones) picks multi-line boxes. */
export function getArgsFormFields(schema: JsonSchema, args?: unknown): ArgsFormField[] {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = new Set(
    Array.isArray(schema.required) ? schema.required.filter((name) => typeof name === "string") : [],
  );
  const proposed = isRecord(args) ? args : {};
  return Object.entries(properties).map(([name, property]) => {
    const fieldSchema = isRecord(property) ? property : {};
    return {
      name,
      required: required.has(name),
      description: typeof fieldSchema.description === "string" ? fieldSchema.description : "",
      schema: fieldSchema,
      ...getKind(fieldSchema, name, proposed[name]),
    };
  });
}

function formatValue(field: ArgsFormField, value: unknown): string {
  if (value === undefined || value === null) return "";
  switch (field.kind) {
    case "enum": {
      const text = JSON.stringify(value);
      const index = (field.options ?? []).findIndex((option) => JSON.stringify(option) === text);
      return index < 0 ? "" : String(index);
    }
    case "boolean":
      return value === true ? "true" : value === false ? "false" : "";
    case "lines":
      return Array.isArray(value)
        ? value.map((item) => (typeof item === "string" ? item : JSON.stringify(item))).join("\n")
        : "";
    case "json":
      return JSON.stringify(value, null, 2);
    default:
      return typeof value === "string" ? value : JSON.stringify(value);
  }
}

/** The form prefilled with the proposed args (a required boolean starts as "false", not empty). */
export function getArgsFormValues(fields: readonly ArgsFormField[], args: unknown): ArgsFormValues {
  const proposed = isRecord(args) ? args : {};
  const values: Record<string, string> = {};
  for (const field of fields) {
    const text = formatValue(field, proposed[field.name]);
    values[field.name] = field.kind === "boolean" && field.required && text === "" ? "false" : text;
  }
  return values;
}

function checkNumber(schema: Readonly<Record<string, unknown>>, value: number): string | null {
  const limit = (key: string) => (typeof schema[key] === "number" ? schema[key] : undefined);
  return getNumberProblem(value, {
    min: limit("minimum"),
    max: limit("maximum"),
    exclusiveMin: limit("exclusiveMinimum"),
    exclusiveMax: limit("exclusiveMaximum"),
  });
}

function checkString(schema: Readonly<Record<string, unknown>>, value: string): string | null {
  const { minLength, maxLength, pattern } = schema;
  if (typeof minLength === "number" && value.length < minLength) return `At least ${minLength} characters.`;
  if (typeof maxLength === "number" && value.length > maxLength) return `At most ${maxLength} characters.`;
  if (typeof pattern === "string") {
    try {
      if (!new RegExp(pattern, "u").test(value)) return `Must match ${pattern}.`;
    } catch {
      // a pattern JavaScript cannot read is left to the server's validation
    }
  }
  return null;
}

function checkCount(schema: Readonly<Record<string, unknown>>, count: number): string | null {
  if (typeof schema.minItems === "number" && count < schema.minItems)
    return `At least ${schema.minItems} items.`;
  if (typeof schema.maxItems === "number" && count > schema.maxItems)
    return `At most ${schema.maxItems} items.`;
  return null;
}

function readValue(field: ArgsFormField, text: string): ParseResult<unknown> {
  switch (field.kind) {
    case "enum": {
      const option = field.options?.[Number(text)];
      return option === undefined
        ? { ok: false, error: "Pick one of the allowed values." }
        : { ok: true, value: option };
    }
    case "boolean":
      return { ok: true, value: text === "true" };
    case "number":
    case "integer": {
      const parsed = parseValueText(field.kind, text);
      if (!parsed.ok) return parsed;
      const problem = checkNumber(field.schema, parsed.value as number);
      return problem ? { ok: false, error: problem } : parsed;
    }
    case "lines": {
      const lines = text.split("\n").filter((line) => line.trim() !== "");
      const items: unknown[] = [];
      for (const [index, line] of lines.entries()) {
        const parsed = parseValueText(
          field.itemType ?? "string",
          field.itemType === "string" ? line : line.trim(),
        );
        if (!parsed.ok) return { ok: false, error: `Line ${index + 1}: ${parsed.error}` };
        items.push(parsed.value);
      }
      const problem = checkCount(field.schema, items.length);
      return problem ? { ok: false, error: problem } : { ok: true, value: items };
    }
    case "json": {
      const parsed = parseJson(text);
      if (!parsed.ok) return { ok: false, error: `Not valid JSON: ${parsed.error}` };
      if (field.jsonType === "array" && !Array.isArray(parsed.value))
        return { ok: false, error: "Must be a JSON array." };
      if (field.jsonType === "object" && !isRecord(parsed.value))
        return { ok: false, error: "Must be a JSON object." };
      if (Array.isArray(parsed.value)) {
        const problem = checkCount(field.schema, parsed.value.length);
        if (problem) return { ok: false, error: problem };
      }
      return parsed;
    }
    default: {
      const problem = checkString(field.schema, text);
      return problem ? { ok: false, error: problem } : { ok: true, value: text };
    }
  }
}

/**
 * Reads the form back into args, or says what is wrong with each field. Args the schema does not list
 * (in `base`, the proposed args) are kept; an optional field left empty is left out.
 */
export function readArgsForm(options: {
  fields: readonly ArgsFormField[];
  values: ArgsFormValues;
  base?: unknown;
}): ArgsFormResult {
  const { fields, values } = options;
  const names = new Set(fields.map((field) => field.name));
  const args: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(isRecord(options.base) ? options.base : {}))
    if (!names.has(key)) args[key] = value;
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const text = values[field.name] ?? "";
    const empty = field.kind === "string" || field.kind === "text" ? text === "" : text.trim() === "";
    if (empty) {
      if (field.required) errors[field.name] = "Required.";
      continue;
    }
    const read = readValue(field, text);
    if (read.ok) args[field.name] = read.value;
    else errors[field.name] = read.error;
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, args };
}

/** The whole args as one JSON box, for a schema without properties: must be a JSON object. */
export function readArgsJson(
  text: string,
): { ok: true; args: Record<string, unknown> } | { ok: false; error: string } {
  const parsed = parseJson(text);
  if (!parsed.ok) return { ok: false, error: `Not valid JSON: ${parsed.error}` };
  if (!isRecord(parsed.value)) return { ok: false, error: "The args must be a JSON object." };
  return { ok: true, args: parsed.value };
}
