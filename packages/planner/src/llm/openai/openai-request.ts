import type { LlmConfig, ResponseFormat } from "@waddle/protocol";
import type { LlmCompleteOptions } from "../llm-client.js";
import type { ParamAdjustments } from "./param-drop-memory.js";

/**
 * The two-field `planner_action` schema for `response_format: json_schema`. Not `strict`: OpenAI's strict
 * mode needs every object closed, and `args` is free-form by design (its shape depends on the tool).
 */
export const PLANNER_ACTION_JSON_SCHEMA = {
  name: "planner_action",
  strict: false,
  schema: {
    type: "object",
    properties: {
      next_node: { type: "string", description: "A tool name or an opcode such as final_response" },
      args: { type: "object", description: "The tool's arguments, or the opcode's" },
    },
    required: ["next_node", "args"],
    additionalProperties: false,
  },
} as const;

/** A chat completions request body, as sent on the wire (snake_case keys). */
export type ChatRequestBody = Record<string, unknown> & {
  model: string;
  messages: { role: string; content: string }[];
  stream: boolean;
};

/**
 * Maps one `complete()` call to a chat completions body: the spec's settings, the call's overrides, and
 * whatever the endpoint refused before (`adjustments`). Pure, so the exact wire shape is unit-tested.
 */
export function buildChatRequest(input: {
  config: LlmConfig;
  options: LlmCompleteOptions;
  adjustments: ParamAdjustments;
}): ChatRequestBody {
  const { config, options, adjustments } = input;
  const stream = options.stream === true;
  const body: ChatRequestBody = {
    model: options.model ?? config.model,
    messages: options.messages.map((message) => ({ role: message.role, content: message.content })),
    stream,
  };
  const effort = options.reasoningEffort ?? explicitEffort(config.reasoningEffort);
  const format = getResponseFormat(options.responseFormat ?? config.responseFormat, adjustments);
  const optional: Record<string, unknown> = {
    temperature: config.temperature,
    reasoning_effort: effort,
    response_format: format,
    stream_options: stream ? { include_usage: true } : undefined,
    [adjustments.useMaxCompletionTokens ? "max_completion_tokens" : "max_tokens"]: config.maxTokens,
  };
  for (const [name, value] of Object.entries(optional)) {
    if (value !== undefined && !adjustments.dropped.has(name as never)) body[name] = value;
  }
  return body;
}

/** `auto` is resolved by the planner's router before the call; the client never sends it. */
function explicitEffort(effort: LlmConfig["reasoningEffort"]): "low" | "medium" | "high" | undefined {
  return effort === "auto" ? undefined : effort;
}

function getResponseFormat(
  format: ResponseFormat | undefined,
  adjustments: ParamAdjustments,
): Record<string, unknown> | undefined {
  if (format === undefined || format === "none") return undefined;
  if (format === "json_schema" && !adjustments.jsonSchemaRefused) {
    return { type: "json_schema", json_schema: PLANNER_ACTION_JSON_SCHEMA };
  }
  return { type: "json_object" };
}
