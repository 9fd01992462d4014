import { parseJson, type ParseResult } from "@waddle/protocol";
import type { FieldType } from "./schema-fields.js";

/** A value typed into a default or enum box, read according to the field's type. */
export function parseValueText(type: FieldType, text: string): ParseResult<unknown> {
  const trimmed = text.trim();
  switch (type) {
    case "string":
      return { ok: true, value: text };
    case "number":
    case "integer": {
      const value = Number(trimmed);
      if (trimmed === "" || !Number.isFinite(value))
        return { ok: false, error: `"${text}" is not a number.` };
      if (type === "integer" && !Number.isInteger(value))
        return { ok: false, error: `"${text}" is not a whole number.` };
      return { ok: true, value };
    }
    case "boolean":
      if (trimmed === "true" || trimmed === "false") return { ok: true, value: trimmed === "true" };
      return { ok: false, error: 'Use "true" or "false".' };
    default:
      return parseJson(trimmed);
  }
}

/** How a value shows in a default or enum box. */
export function formatValueText(type: FieldType, value: unknown): string {
  if (value === undefined) return "";
  if (type === "string" && typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

/** Enum values typed as a comma-separated list. */
export function parseEnumText(type: FieldType, text: string): ParseResult<unknown[] | undefined> {
  if (text.trim() === "") return { ok: true, value: undefined };
  const values: unknown[] = [];
  for (const part of text.split(",")) {
    const parsed = parseValueText(type, type === "string" ? part.trim() : part);
    if (!parsed.ok) return parsed;
    values.push(parsed.value);
  }
  return { ok: true, value: values };
}

/** Enum values as a comma-separated list. */
export function formatEnumText(type: FieldType, values: readonly unknown[] | undefined): string {
  return (values ?? []).map((value) => formatValueText(type, value)).join(", ");
}
