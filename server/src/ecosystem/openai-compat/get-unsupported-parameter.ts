import { ApiError } from "../../shared/api-error.js";

/**
 * The first parameter of an OpenAI request that Waddle cannot honour, as a 400 naming it: a client that asks
 * for a forced tool call or a JSON-schema answer and silently gets free text breaks later, far from the
 * cause. An agent answers with its own tools and its own answer, so:
 * - `tool_choice` `"required"` or a named function (forcing a call of the caller's tools) is refused;
 *   `"auto"` and `"none"` describe what the agent does anyway and pass;
 * - `response_format` (chat) or `text.format` (Responses) of type `json_schema` or `json_object` is
 *   refused; `text` passes.
 * Sampling parameters (`temperature`, `top_p`, …) are tuning hints, not contracts, and stay ignored.
 */
export function getUnsupportedParameter(body: Record<string, unknown>): ApiError | undefined {
  const choice = body.tool_choice;
  if (choice !== undefined && choice !== null && choice !== "auto" && choice !== "none") {
    const shown = typeof choice === "string" ? `"${choice.slice(0, 40)}"` : "a named function";
    return refuse(
      "tool_choice",
      `tool_choice ${shown} cannot be honoured: a Waddle agent calls its own tools, so leave tool_choice out or send "auto".`,
    );
  }
  const format = getFormatType(body.response_format) ?? getFormatType(getField(body.text, "format"));
  if (format === "json_schema" || format === "json_object") {
    const param = body.response_format === undefined ? "text.format" : "response_format";
    return refuse(
      param,
      `${param} ${format} cannot be honoured: a Waddle agent answers in text. Leave ${param} out and describe the answer's shape in the agent's system prompt, or parse its answer.`,
    );
  }
  return undefined;
}

function refuse(param: string, message: string): ApiError {
  return new ApiError("validation_failed", message, { param, openAiCode: "unsupported_parameter" });
}

function getField(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

function getFormatType(value: unknown): unknown {
  return getField(value, "type");
}
