import { createUniqueName } from "../graph/create-unique-name.js";
import { createField, type FieldType, type SchemaField, type SchemaModel } from "./schema-fields.js";

/** Where a field sits: indices into `fields`, with `"items"` stepping into an array's item schema. */
export type FieldPath = readonly (number | "items")[];

function mapFields(
  fields: readonly SchemaField[],
  path: FieldPath,
  update: (siblings: SchemaField[], index: number) => SchemaField[],
): SchemaField[] {
  const [head, ...rest] = path;
  if (typeof head !== "number") return [...fields];
  if (rest.length === 0) return update([...fields], head);
  return fields.map((field, index) => (index === head ? mapInField(field, rest, update) : field));
}

function mapInField(
  field: SchemaField,
  path: FieldPath,
  update: (siblings: SchemaField[], index: number) => SchemaField[],
): SchemaField {
  const [head, ...rest] = path;
  if (head === "items") {
    if (!field.items) return field;
    if (rest.length === 0) {
      const [items] = update([field.items], 0);
      return items ? { ...field, items } : field;
    }
    return { ...field, items: mapInField(field.items, rest, update) };
  }
  return { ...field, fields: mapFields(field.fields, path, update) };
}

/** The field at a path, if any. */
export function getFieldAt(model: SchemaModel, path: FieldPath): SchemaField | undefined {
  let fields: readonly SchemaField[] = model.fields;
  let current: SchemaField | undefined;
  for (const step of path) {
    current = step === "items" ? current?.items : fields[step];
    if (!current) return undefined;
    fields = current.fields;
  }
  return current;
}

/**
 * Edits a field. A new type drops what no longer fits it (default, enum, properties, item schema) and an
 * array gets a string item schema to start from.
 */
export function updateField(model: SchemaModel, path: FieldPath, patch: Partial<SchemaField>): SchemaModel {
  const apply = (field: SchemaField): SchemaField => {
    const next = { ...field, ...patch };
    if (patch.type !== undefined && patch.type !== field.type) return retype(next, patch.type);
    return next;
  };
  return {
    ...model,
    fields: mapFields(model.fields, path, (siblings, index) => replaceAt(siblings, index, apply)),
  };
}

function retype(field: SchemaField, type: FieldType): SchemaField {
  const { default: _default, enum: _enum, items: _items, ...rest } = field;
  const next: SchemaField = { ...rest, type, fields: type === "object" ? field.fields : [] };
  if (type === "array") next.items = field.items ?? createField({ name: "", type: "string" });
  return next;
}

function replaceAt(
  siblings: SchemaField[],
  index: number,
  apply: (field: SchemaField) => SchemaField,
): SchemaField[] {
  const field = siblings[index];
  if (!field) return siblings;
  siblings[index] = apply(field);
  return siblings;
}

/** Appends a new string field (named `field`, `field_2`, …) to the root or to an object field. */
export function addField(model: SchemaModel, parentPath: FieldPath = []): SchemaModel {
  const add = (fields: readonly SchemaField[]) => [
    ...fields,
    createField({ name: createUniqueName({ base: "field", taken: fields.map((field) => field.name) }) }),
  ];
  if (parentPath.length === 0) return { ...model, fields: add(model.fields) };
  return {
    ...model,
    fields: mapFields(model.fields, parentPath, (siblings, index) =>
      replaceAt(siblings, index, (field) => ({ ...field, fields: add(field.fields) })),
    ),
  };
}

/** Removes a field. */
export function removeField(model: SchemaModel, path: FieldPath): SchemaModel {
  return {
    ...model,
    fields: mapFields(model.fields, path, (siblings, index) => siblings.filter((_, i) => i !== index)),
  };
}

/** Moves a field up (`-1`) or down (`1`) among its siblings. */
export function moveField(model: SchemaModel, path: FieldPath, delta: -1 | 1): SchemaModel {
  return {
    ...model,
    fields: mapFields(model.fields, path, (siblings, index) => {
      const target = index + delta;
      const field = siblings[index];
      const other = siblings[target];
      if (!field || !other) return siblings;
      siblings[index] = other;
      siblings[target] = field;
      return siblings;
    }),
  };
}

/** Names that two siblings share (the editor flags them; saving them would lose one). */
export function getDuplicateNames(fields: readonly SchemaField[]): Set<string> {
  const seen = new Set<string>();
  const duplicates = new Set<string>();
  for (const field of fields) {
    if (seen.has(field.name)) duplicates.add(field.name);
    seen.add(field.name);
  }
  return duplicates;
}
