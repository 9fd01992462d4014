import { ApiError } from "../../shared/api-error.js";

/**
 * The first parameter of an OpenAI request that Waddle cannot honour, as a 400 naming it: a client that asks
 * for a forced tool call and silently gets none breaks later, far from the cause. An agent calls its own
 * tools, so `tool_choice` `"required"` or a named function (forcing a call of the caller's tools) is
 * refused; `"auto"` and `"none"` describe what the agent does anyway and pass. `response_format` and
 * `text.format` are honoured (`getAnswerFormat`). Sampling parameters (`temperature`, `top_p`, …) are tuning hints, not contracts, and stay ignored.
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
  return undefined;
}

function refuse(param: string, message: string): ApiError {
  return new ApiError("validation_failed", message, { param, openAiCode: "unsupported_parameter" });
}
