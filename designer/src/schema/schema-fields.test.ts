import { describe, expect, it } from "vitest";
import {
  addField,
  getDuplicateNames,
  getFieldAt,
  moveField,
  removeField,
  updateField,
} from "./schema-field-edits.js";
import { getSchemaFromModel, getSchemaModel } from "./schema-fields.js";
import { formatEnumText, parseEnumText, parseValueText } from "./value-text.js";

const schema = {
  type: "object",
  title: "Search args",
  additionalProperties: false,
  properties: {
    query: { type: "string", description: "What to look for", minLength: 1 },
    k: { type: "integer", default: 3, minimum: 1 },
    mode: { type: "string", enum: ["fast", "deep"] },
    filters: {
      type: "object",
      properties: {
        since: { type: "string", format: "date" },
        tags: { type: "array", items: { type: "string" } },
      },
      required: ["since"],
    },
    hits: {
      type: "array",
      items: { type: "object", properties: { url: { type: "string" } }, required: ["url"] },
    },
    anything: {},
    nullable: { type: ["string", "null"] },
  },
  required: ["query", "filters"],
};

describe("schema field model", () => {
  it("reads names, types, required, descriptions, defaults, enums and nesting", () => {
    const model = getSchemaModel(schema);
    expect(model.fields.map((field) => [field.name, field.type, field.required])).toEqual([
      ["query", "string", true],
      ["k", "integer", false],
      ["mode", "string", false],
      ["filters", "object", true],
      ["hits", "array", false],
      ["anything", "any", false],
      ["nullable", "any", false],
    ]);
    expect(model.fields[0]).toMatchObject({ description: "What to look for", extra: { minLength: 1 } });
    expect(model.fields[1]?.default).toBe(3);
    expect(model.fields[2]?.enum).toEqual(["fast", "deep"]);
    expect(getFieldAt(model, [3, 0])).toMatchObject({
      name: "since",
      required: true,
      extra: { format: "date" },
    });
    expect(getFieldAt(model, [3, 1, "items"])).toMatchObject({ type: "string" });
    expect(getFieldAt(model, [4, "items", 0])).toMatchObject({ name: "url", required: true });
    expect(model.extra).toEqual({ title: "Search args", additionalProperties: false });
  });

  it("writes back the same JSON Schema, keeping keywords it does not model", () => {
    expect(getSchemaFromModel(getSchemaModel(schema))).toEqual(schema);
    const odd = { type: "object", properties: { x: { type: "string" } }, required: ["x", "ghost"] };
    expect(getSchemaFromModel(getSchemaModel(odd))).toEqual(odd);
    expect(getSchemaFromModel(getSchemaModel({ type: "object", properties: {} }))).toEqual({
      type: "object",
      properties: {},
    });
  });

  it("adds, renames, requires, retypes, moves and removes fields", () => {
    let model = getSchemaModel({ type: "object", properties: {} });
    model = addField(model);
    model = addField(model);
    model = updateField(model, [0], { name: "city", required: true, description: "City name" });
    model = updateField(model, [1], { type: "array" });
    model = updateField(model, [1, "items"], { type: "object" });
    model = addField(model, [1, "items"]);
    model = updateField(model, [1, "items", 0], { name: "lat", type: "number" });
    expect(getSchemaFromModel(model)).toEqual({
      type: "object",
      properties: {
        city: { type: "string", description: "City name" },
        field_2: { type: "array", items: { type: "object", properties: { lat: { type: "number" } } } },
      },
      required: ["city"],
    });
    model = moveField(model, [1], -1);
    expect(model.fields.map((field) => field.name)).toEqual(["field_2", "city"]);
    model = removeField(model, [0]);
    expect(getSchemaFromModel(model)).toEqual({
      type: "object",
      properties: { city: { type: "string", description: "City name" } },
      required: ["city"],
    });
  });

  it("drops a default and enum that no longer fit a new type", () => {
    const model = updateField(getSchemaModel(schema), [1], { type: "string" });
    expect(getFieldAt(model, [1])).toMatchObject({ type: "string", extra: { minimum: 1 } });
    expect(getFieldAt(model, [1])?.default).toBeUndefined();
  });

  it("flags duplicate sibling names", () => {
    const model = updateField(addField(addField(getSchemaModel({ type: "object" }))), [1], { name: "field" });
    expect(getDuplicateNames(model.fields)).toEqual(new Set(["field"]));
  });
});

describe("value text", () => {
  it("reads defaults and enums by type", () => {
    expect(parseValueText("integer", " 4 ")).toEqual({ ok: true, value: 4 });
    expect(parseValueText("integer", "4.5").ok).toBe(false);
    expect(parseValueText("boolean", "true")).toEqual({ ok: true, value: true });
    expect(parseValueText("object", '{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(parseValueText("array", "[1,").ok).toBe(false);
    expect(parseEnumText("string", "fast, deep")).toEqual({ ok: true, value: ["fast", "deep"] });
    expect(parseEnumText("number", "1, 2.5")).toEqual({ ok: true, value: [1, 2.5] });
    expect(parseEnumText("string", "  ")).toEqual({ ok: true, value: undefined });
    expect(formatEnumText("number", [1, 2])).toBe("1, 2");
  });
});
