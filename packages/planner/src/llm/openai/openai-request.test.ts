import { LlmConfig } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { buildChatRequest, PLANNER_ACTION_JSON_SCHEMA } from "./openai-request.js";
import type { ParamAdjustments } from "./param-drop-memory.js";

const none: ParamAdjustments = {
  dropped: new Set(),
  useMaxCompletionTokens: false,
  jsonSchemaRefused: false,
};
const config = LlmConfig.parse({
  provider: "openai",
  model: "gpt-5-mini",
  maxTokens: 300,
  reasoningEffort: "low",
});
const messages = [{ role: "user" as const, content: "hi" }];

describe("buildChatRequest", () => {
  it("maps the spec and the call to the wire body", () => {
    expect(
      buildChatRequest({
        config,
        options: { messages, stream: true, responseFormat: "json_schema" },
        adjustments: none,
      }),
    ).toEqual({
      model: "gpt-5-mini",
      messages,
      stream: true,
      temperature: 0,
      reasoning_effort: "low",
      response_format: { type: "json_schema", json_schema: PLANNER_ACTION_JSON_SCHEMA },
      stream_options: { include_usage: true },
      max_tokens: 300,
    });
  });

  it("lets the call pick the model and effort", () => {
    const body = buildChatRequest({
      config,
      options: { messages, model: "gpt-5", reasoningEffort: "high" },
      adjustments: none,
    });
    expect(body).toMatchObject({ model: "gpt-5", reasoning_effort: "high", stream: false });
    expect(body).not.toHaveProperty("stream_options");
  });

  it("applies what the endpoint refused before", () => {
    const adjustments: ParamAdjustments = {
      dropped: new Set(["reasoning_effort", "temperature"]),
      useMaxCompletionTokens: true,
      jsonSchemaRefused: true,
    };
    const body = buildChatRequest({
      config,
      options: { messages, responseFormat: "json_schema" },
      adjustments,
    });
    expect(body).not.toHaveProperty("reasoning_effort");
    expect(body).not.toHaveProperty("temperature");
    expect(body).not.toHaveProperty("max_tokens");
    expect(body).toMatchObject({ max_completion_tokens: 300, response_format: { type: "json_object" } });
  });
});
