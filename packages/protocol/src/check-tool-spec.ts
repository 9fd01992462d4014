import { z } from "zod";
import type { JsonSchema, ToolSpec } from "./agent-spec.js";
import { checkToolTemplates } from "./check-tool-templates.js";
import { describeZodIssue } from "./describe-zod-issue.js";
import type { SpecCheckPath as Path, SpecCheckReport as Report } from "./spec-check.js";

const SECRET_HEADERS = new Set(["authorization", "proxy-authorization", "x-api-key", "api-key", "cookie"]);

/** Checks one tool on its own: its schemas, its flags, its impl, its description. */
export function checkToolSpec(tool: ToolSpec, at: Path, report: Report): void {
  checkToolSchema(tool.argsSchema, [...at, "argsSchema"], "args", report);
  checkToolSchema(tool.outSchema, [...at, "outSchema"], "out", report);
  if (tool.desc.trim() === "") {
    report(
      "warning",
      "missing_description",
      [...at, "desc"],
      `${tool.name} has no description: the model reads it to decide when to call the tool.`,
    );
  }
  if (tool.autoSeqExecute && !tool.autoSeq) {
    report(
      "warning",
      "auto_seq_execute_without_auto_seq",
      [...at, "autoSeqExecute"],
      `"autoSeqExecute" has no effect unless "autoSeq" is on for ${tool.name}.`,
    );
  }
  if (tool.impl.kind === "http") checkHttpImpl(tool.impl, [...at, "impl"], report);
  checkToolTemplates(tool, at, report);
}

/** Checks that a schema is valid JSON Schema of an object (a tool's args or out, the agent's answer). */
export function checkToolSchema(schema: JsonSchema, path: Path, which: string, report: Report): void {
  const type = schema.type;
  const describesObject = type === "object" || (type === undefined && typeof schema.properties === "object");
  if (!describesObject) {
    report(
      "error",
      "schema_not_object",
      path,
      `The ${which} schema must describe an object ({"type": "object", "properties": {...}}); got type ${JSON.stringify(type ?? null)}.`,
    );
    return;
  }
  const properties = schema.properties;
  if (
    properties !== undefined &&
    (properties === null || typeof properties !== "object" || Array.isArray(properties))
  ) {
    report(
      "error",
      "invalid_json_schema",
      [...path, "properties"],
      `"properties" must be an object of field schemas.`,
    );
    return;
  }
  try {
    z.fromJSONSchema(schema as FromJsonSchemaInput);
  } catch (error) {
    report(
      "error",
      "invalid_json_schema",
      path,
      `The ${which} schema is not valid JSON Schema: ${(error as Error).message}.`,
    );
    return;
  }
  checkDefaults(schema, path, report);
}

type FromJsonSchemaInput = Parameters<typeof z.fromJSONSchema>[0];

/**
 * A default its own field refuses (not one of the allowed values, the wrong type, out of range): JSON
 * Schema accepts it, but arg-fill and the offline model fill it in and the tool's validation refuses it.
 */
function checkDefaults(schema: JsonSchema, path: Path, report: Report): void {
  if (schema.default !== undefined && path.at(-2) === "properties") {
    const field = { ...schema };
    delete field.default;
    const parsed = z.fromJSONSchema(field as FromJsonSchemaInput).safeParse(schema.default);
    if (!parsed.success) {
      report(
        "warning",
        "invalid_default",
        [...path, "default"],
        `The default ${JSON.stringify(schema.default)} of "${String(path.at(-1))}" does not fit its own field ` +
          `(${getDefaultProblem(parsed.error.issues[0], String(path.at(-1)), schema.default)}): change the ` +
          "default or the field's type or allowed values.",
      );
    }
  }
  const properties = schema.properties;
  if (properties !== null && typeof properties === "object" && !Array.isArray(properties)) {
    for (const [name, child] of Object.entries(properties as Record<string, unknown>)) {
      if (isSchema(child)) checkDefaults(child, [...path, "properties", name], report);
    }
  }
  if (isSchema(schema.items)) checkDefaults(schema.items, [...path, "items"], report);
}

function isSchema(value: unknown): value is JsonSchema {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function checkHttpImpl(impl: Extract<ToolSpec["impl"], { kind: "http" }>, path: Path, report: Report): void {
  const probe = impl.url.replace(/\{[^}]*\}/g, "x");
  const protocol = URL.canParse(probe) ? new URL(probe).protocol : "";
  if (protocol !== "http:" && protocol !== "https:") {
    report("error", "invalid_url", [...path, "url"], `"${impl.url}" is not an http(s) URL template.`);
  }
  for (const [name, value] of Object.entries(impl.headers)) {
    if (typeof value === "string" && SECRET_HEADERS.has(name.toLowerCase())) {
      report(
        "error",
        "literal_secret_header",
        [...path, "headers", name],
        `Header "${name}" holds a literal value: use {"secret": "NAME"} so the server supplies WADDLE_SECRET_NAME.`,
      );
    }
  }
}

/** Why a default does not fit its field, in plain words naming the field (`describeZodIssue`). */
function getDefaultProblem(issue: z.core.$ZodIssue | undefined, field: string, value: unknown): string {
  if (issue === undefined) return "it is not accepted";
  const at = issue.path.reduce<unknown>(
    (current, key) =>
      current !== null && typeof current === "object"
        ? (current as Record<PropertyKey, unknown>)[key]
        : undefined,
    value,
  );
  return describeZodIssue({ ...issue, path: [field, ...issue.path] }, at).replace(/\.$/, "");
}
