import {
  isPythonIdentifier,
  NameScope,
  toPascalCase,
  toPythonComment,
  toPythonLiteral,
  toPythonString,
} from "./python-source.js";

type Schema = Record<string, unknown>;

/** JSON Schema keywords pydantic models cannot say: a schema using one becomes `dict[str, Any]` or `Any`. */
const UNSUPPORTED_KEYWORDS = [
  "patternProperties",
  "allOf",
  "not",
  "if",
  "then",
  "else",
  "$ref",
  "$defs",
  "definitions",
  "dependentRequired",
  "dependentSchemas",
  "dependencies",
  "propertyNames",
  "unevaluatedProperties",
  "unevaluatedItems",
  "prefixItems",
  "contains",
  "minProperties",
  "maxProperties",
  "uniqueItems",
] as const;

/** Keywords the field's type, default and constraints carry; any other keyword goes to `json_schema_extra`. */
export const CARRIED_KEYWORDS: ReadonlySet<string> = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "enum",
  "const",
  "anyOf",
  "oneOf",
  "default",
  "description",
  "examples",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "pattern",
  "title",
]);

/** Names a field may not take in a model body: the names its annotations use, and BaseModel's own. */
const RESERVED_FIELD_NAMES = new Set([
  "str",
  "int",
  "float",
  "bool",
  "list",
  "dict",
  "Any",
  "Literal",
  "Optional",
  "Field",
  "BaseModel",
  "ConfigDict",
  "None",
  "copy",
  "dict",
  "json",
  "schema",
  "schema_json",
  "construct",
  "validate",
  "fields",
  "parse_obj",
  "parse_raw",
  "parse_file",
  "from_orm",
  "update_forward_refs",
]);

/** A part of a schema that a pydantic model cannot express, at its JSON path in the tool. */
export interface LossyField {
  model: string;
  path: string;
  feature: string;
}

/** A property whose name is not a Python identifier, and the field name that carries it as `alias`. */
export interface RenamedField {
  model: string;
  property: string;
  field: string;
}

/** Writes pydantic models for JSON Schemas into one module, collecting what it could not carry. */
export class PydanticWriter {
  readonly classes: string[] = [];
  readonly lossy: LossyField[] = [];
  readonly renamed: RenamedField[] = [];

  constructor(private readonly classNames: NameScope) {}

  /** A model class for an object schema (any other schema is wrapped as a model with no fields). */
  writeModel(wanted: string, schema: Schema, path: string): string {
    const name = this.classNames.take(toPascalCase(wanted));
    const body: string[] = [];
    const feature = getUnsupported(schema);
    const config: string[] = [];
    if (feature) {
      this.lossy.push({ model: name, path, feature });
      body.push(
        `    # ${toPythonComment(`${path} uses ${feature}, which a pydantic model cannot express: extra fields allowed.`)}`,
      );
      config.push(`extra="allow"`);
    }
    const properties = isRecord(schema.properties) ? schema.properties : {};
    const required = new Set(Array.isArray(schema.required) ? schema.required.filter(isString) : []);
    if (schema.additionalProperties === false) config.push(`extra="forbid"`);
    else if (
      !feature &&
      (schema.additionalProperties !== undefined || Object.keys(properties).length === 0)
    ) {
      if (isRecord(schema.additionalProperties) && Object.keys(schema.additionalProperties).length > 0) {
        this.lossy.push({
          model: name,
          path: `${path}.additionalProperties`,
          feature: "typed additionalProperties",
        });
      }
      config.push(`extra="allow"`);
    }
    const fieldNames = new NameScope(RESERVED_FIELD_NAMES);
    const fields: string[] = [];
    for (const [property, value] of Object.entries(properties)) {
      const field = isRecord(value) ? value : {};
      fields.push(
        ...this.writeField({
          model: name,
          property,
          schema: field,
          required: required.has(property),
          path,
          fieldNames,
        }),
      );
    }
    // pydantic's default regex engine refuses look-arounds and back-references that JSON Schema allows.
    if (Object.values(properties).some((value) => isRecord(value) && typeof value.pattern === "string")) {
      config.push(`regex_engine="python-re"`);
    }
    const extra: Schema = {};
    if (typeof schema.description === "string") extra.description = schema.description;
    if (config.length > 0 || Object.keys(extra).length > 0) {
      const parts = [...new Set(config)];
      if (Object.keys(extra).length > 0) parts.push(`json_schema_extra=${toPythonLiteral(extra, "    ")}`);
      body.push(`    model_config = ConfigDict(${parts.join(", ")})`);
    }
    body.push(...fields);
    if (body.length === 0) body.push("    pass");
    this.classes.push(`class ${name}(BaseModel):\n${body.join("\n")}\n`);
    return name;
  }

  private writeField(options: {
    model: string;
    property: string;
    schema: Schema;
    required: boolean;
    path: string;
    fieldNames: NameScope;
  }): string[] {
    const { model, property, schema, required } = options;
    const fieldPath = `${options.path}.properties[${JSON.stringify(property)}]`;
    const safe = isPythonIdentifier(property) && !property.startsWith("_") && !property.startsWith("model_");
    const field = options.fieldNames.take(
      safe ? property : `field_${property.replace(/[^A-Za-z0-9_]/g, "_").replace(/^_+/, "")}`,
    );
    const lines: string[] = [];
    if (field !== property) {
      this.renamed.push({ model, property, field });
      lines.push(`    # ${toPythonComment(`field ${field} is the property ${JSON.stringify(property)}`)}`);
    }
    let annotation = this.getAnnotation(
      schema,
      `${toPascalCase(model)}${toPascalCase(property)}`,
      fieldPath,
      lines,
    );
    const args: string[] = [];
    if (schema.default !== undefined) args.push(toPythonLiteral(schema.default, "    "));
    else if (!required) {
      if (annotation !== "Any" && !annotation.endsWith("| None")) annotation = `Optional[${annotation}]`;
      args.push("None");
    } else args.push("...");
    if (field !== property) args.push(`alias=${toPythonString(property)}`);
    if (typeof schema.description === "string")
      args.push(`description=${toPythonString(schema.description)}`);
    if (Array.isArray(schema.examples)) args.push(`examples=${toPythonLiteral(schema.examples, "    ")}`);
    args.push(...getConstraints(schema));
    const extra = Object.fromEntries(
      Object.entries(schema).filter(([keyword]) => !CARRIED_KEYWORDS.has(keyword)),
    );
    if (Object.keys(extra).length > 0 && !getUnsupported(schema)) {
      args.push(`json_schema_extra=${toPythonLiteral(extra, "    ")}`);
    }
    lines.push(`    ${field}: ${annotation} = Field(${args.join(", ")})`);
    return lines;
  }

  /** The Python type of a schema; nested objects become their own classes. */
  private getAnnotation(schema: Schema, wanted: string, path: string, comments: string[]): string {
    const feature = getUnsupported(schema);
    if (feature) {
      this.lossy.push({ model: wanted, path, feature });
      comments.push(
        `    # ${toPythonComment(`${path} uses ${feature}, which pydantic cannot express from JSON Schema: kept as a plain value.`)}`,
      );
      return looksLikeObject(schema) ? "dict[str, Any]" : "Any";
    }
    if (schema.const !== undefined) return `Literal[${toPythonLiteral(schema.const)}]`;
    if (Array.isArray(schema.enum) && schema.enum.length > 0 && schema.enum.every(isLiteralValue)) {
      return `Literal[${schema.enum.map((value) => toPythonLiteral(value)).join(", ")}]`;
    }
    const union = Array.isArray(schema.anyOf)
      ? schema.anyOf
      : Array.isArray(schema.oneOf)
        ? schema.oneOf
        : undefined;
    if (union) {
      if (Array.isArray(schema.oneOf))
        this.lossy.push({ model: wanted, path, feature: "oneOf (written as a union: anyOf)" });
      return union
        .map((member, index) =>
          this.getAnnotation(
            isRecord(member) ? member : {},
            `${wanted}${index + 1}`,
            `${path}.anyOf[${index}]`,
            comments,
          ),
        )
        .join(" | ");
    }
    const types = Array.isArray(schema.type)
      ? schema.type.filter(isString)
      : isString(schema.type)
        ? [schema.type]
        : [];
    if (types.length > 1) {
      return types.map((type) => this.getAnnotation({ ...schema, type }, wanted, path, comments)).join(" | ");
    }
    switch (types[0]) {
      case "string":
        return "str";
      case "integer":
        return "int";
      case "number":
        return "float";
      case "boolean":
        return "bool";
      case "null":
        return "None";
      case "array":
        return isRecord(schema.items)
          ? `list[${this.getAnnotation(schema.items, `${wanted}Item`, `${path}.items`, comments)}]`
          : "list[Any]";
      case "object":
        return this.getObjectAnnotation(schema, wanted, path, comments);
      default:
        return isRecord(schema.properties) ? this.getObjectAnnotation(schema, wanted, path, comments) : "Any";
    }
  }

  private getObjectAnnotation(schema: Schema, wanted: string, path: string, comments: string[]): string {
    if (isRecord(schema.properties) && Object.keys(schema.properties).length > 0) {
      return this.writeModel(wanted, schema, path);
    }
    if (isRecord(schema.additionalProperties) && Object.keys(schema.additionalProperties).length > 0) {
      return `dict[str, ${this.getAnnotation(schema.additionalProperties, `${wanted}Value`, `${path}.additionalProperties`, comments)}]`;
    }
    return "dict[str, Any]";
  }
}

function getConstraints(schema: Schema): string[] {
  const pairs: [string, string][] = [
    ["minimum", "ge"],
    ["maximum", "le"],
    ["exclusiveMinimum", "gt"],
    ["exclusiveMaximum", "lt"],
    ["multipleOf", "multiple_of"],
    ["minLength", "min_length"],
    ["maxLength", "max_length"],
    ["minItems", "min_length"],
    ["maxItems", "max_length"],
  ];
  const out = pairs.flatMap(([keyword, name]) =>
    typeof schema[keyword] === "number" ? [`${name}=${toPythonLiteral(schema[keyword])}`] : [],
  );
  if (typeof schema.pattern === "string") out.push(`pattern=${toPythonString(schema.pattern)}`);
  return out;
}

function getUnsupported(schema: Schema): string | undefined {
  return UNSUPPORTED_KEYWORDS.find((keyword) => schema[keyword] !== undefined);
}

function looksLikeObject(schema: Schema): boolean {
  return (
    schema.type === "object" ||
    isRecord(schema.properties) ||
    isRecord(schema.patternProperties) ||
    schema.type === undefined
  );
}

function isRecord(value: unknown): value is Schema {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function isString(value: unknown): value is string {
  return typeof value === "string";
}

function isLiteralValue(value: unknown): boolean {
  return value === null || ["string", "number", "boolean"].includes(typeof value);
}
