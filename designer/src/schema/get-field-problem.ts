import type { SchemaField } from "./schema-fields.js";

/**
 * What is wrong with a field that a JSON Schema validator would accept but a run would trip over: a
 * default outside the allowed values is filled in by arg-fill and then refused by the tool's own schema.
 */
export function getFieldProblem(field: SchemaField): string | null {
  if (field.default === undefined || field.enum === undefined) return null;
  const text = JSON.stringify(field.default);
  if (field.enum.some((value) => JSON.stringify(value) === text)) return null;
  return `The default ${text} is not one of the allowed values.`;
}
