import { z } from "zod";

/**
 * What a form needs to check a number as its schema does. An integer's exclusive bound is given as the
 * inclusive one (`positive()` → `min: 1`); a decimal's stays exclusive (`positive()` → `exclusiveMin: 0`).
 */
export interface NumberBounds {
  integer: boolean;
  min?: number;
  max?: number;
  exclusiveMin?: number;
  exclusiveMax?: number;
}

type JsonNumberSchema = {
  type?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
};

/** The schema inside `.optional()`, `.nullable()` and `.default()` wrappers. */
function unwrapField(schema: z.core.$ZodType): z.core.$ZodType {
  let inner = schema;
  while (inner instanceof z.ZodOptional || inner instanceof z.ZodNullable || inner instanceof z.ZodDefault)
    inner = inner.unwrap();
  return inner;
}

/** The bounds a number schema checks (through its optional/default wrappers); none for other schemas. */
export function getNumberBounds(schema: z.core.$ZodType): NumberBounds {
  const inner = unwrapField(schema);
  if (!(inner instanceof z.ZodNumber)) return { integer: false };
  const json = z.toJSONSchema(inner) as JsonNumberSchema;
  const integer = json.type === "integer";
  // z.int() checks the safe-integer range: no bound a person would type against
  const isOwn = (value: number | undefined): value is number =>
    value !== undefined && !(integer && Math.abs(value) === Number.MAX_SAFE_INTEGER);
  const bounds: NumberBounds = { integer };
  if (isOwn(json.minimum)) bounds.min = json.minimum;
  if (isOwn(json.maximum)) bounds.max = json.maximum;
  if (isOwn(json.exclusiveMinimum)) {
    if (integer) bounds.min = Math.floor(json.exclusiveMinimum) + 1;
    else bounds.exclusiveMin = json.exclusiveMinimum;
  }
  if (isOwn(json.exclusiveMaximum)) {
    if (integer) bounds.max = Math.ceil(json.exclusiveMaximum) - 1;
    else bounds.exclusiveMax = json.exclusiveMaximum;
  }
  return bounds;
}

/** The number bounds of every field of an object schema (`{integer: false}` for fields that are no number). */
export function getFieldBounds<Shape extends z.ZodRawShape>(
  schema: z.ZodObject<Shape>,
): { [Key in keyof Shape]: NumberBounds } {
  const entries = Object.entries(schema.shape).map(([key, field]) => [key, getNumberBounds(field)]);
  return Object.fromEntries(entries) as { [Key in keyof Shape]: NumberBounds };
}
