import { z } from "zod";
import { ApiError } from "../../shared/api-error.js";

/** `{type: "json_object"}`: any object; the model is told only that the answer is one. */
const ANY_OBJECT_SCHEMA = { type: "object" } as const;

/**
 * The answer schema a request asks for (docs/guides/structured-answers.md): `response_format` (Chat
 * Completions: `{type: "json_schema", json_schema: {name, schema}}` or `{type: "json_object"}`) or
 * `text.format` (Responses: `{type: "json_schema", name, schema}` or `{type: "json_object"}`). `text` or
 * none: undefined. A schema that is not valid JSON Schema of an object is OpenAI's 400 naming the param.
 */
export function getAnswerFormat(body: Record<string, unknown>): Record<string, unknown> | undefined {
  const chat = body.response_format;
  const param = chat === undefined || chat === null ? "text.format" : "response_format";
  const format = param === "response_format" ? chat : getField(body.text, "format");
  if (format === undefined || format === null) return undefined;
  const type = getField(format, "type");
  if (type === "text") return undefined;
  if (type === "json_object") return { ...ANY_OBJECT_SCHEMA };
  if (type !== "json_schema") {
    throw invalid(param, `${param}.type must be "text", "json_object" or "json_schema".`);
  }
  const holder = param === "response_format" ? getField(format, "json_schema") : format;
  const schema = getField(holder, "schema");
  const at = param === "response_format" ? "response_format.json_schema.schema" : "text.format.schema";
  if (!isRecord(schema)) throw invalid(param, `${at} must be a JSON Schema object.`);
  const type2 = schema.type;
  if (type2 !== "object" && !(type2 === undefined && isRecord(schema.properties))) {
    throw invalid(
      param,
      `${at} must describe an object ({"type": "object", "properties": {…}}): an agent's answer is an object.`,
    );
  }
  try {
    z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch (error) {
    throw invalid(param, `${at} is not valid JSON Schema: ${(error as Error).message}.`);
  }
  return schema;
}

function invalid(param: string, message: string): ApiError {
  return new ApiError("validation_failed", `Invalid schema for ${param}: ${message}`, {
    param,
    openAiCode: "invalid_value",
  });
}

function getField(value: unknown, key: string): unknown {
  return isRecord(value) ? value[key] : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
