import { describe, expect, it } from "vitest";
import { findParamRefusal, ParamDropMemory } from "./param-drop-memory.js";

const body = { model: "m", messages: [], reasoning_effort: "low", temperature: 0, max_tokens: 100 };

describe("findParamRefusal", () => {
  it("reads OpenAI's error.param and message", () => {
    expect(findParamRefusal({ param: "reasoning_effort", message: "Unsupported parameter.", body })).toEqual({
      kind: "drop",
      param: "reasoning_effort",
    });
    expect(
      findParamRefusal({ message: "Unrecognized request argument supplied: reasoning_effort", body }),
    ).toEqual({ kind: "drop", param: "reasoning_effort" });
  });

  it("reads the wording of vLLM / LiteLLM style messages", () => {
    const message =
      "litellm.UnsupportedParamsError: deepseek does not support parameters: {'temperature': 0}";
    expect(findParamRefusal({ message, body })).toEqual({ kind: "drop", param: "temperature" });
  });

  it("ignores parameters the request did not send, and unrelated 400s", () => {
    expect(findParamRefusal({ message: "'response_format' is not supported", body })).toBeUndefined();
    expect(findParamRefusal({ message: "messages: field required", body })).toBeUndefined();
  });

  it("renames max_tokens when the endpoint asks for max_completion_tokens", () => {
    const message =
      "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.";
    expect(findParamRefusal({ param: "max_tokens", message, body })).toEqual({ kind: "rename_max_tokens" });
  });

  it("downgrades a refused json_schema", () => {
    const withSchema = { ...body, response_format: { type: "json_schema" } };
    expect(findParamRefusal({ message: "json_schema is not supported", body: withSchema })).toEqual({
      kind: "json_schema",
    });
  });
});

describe("ParamDropMemory", () => {
  it("remembers per (base URL, model) and says when a refusal teaches nothing new", () => {
    const memory = new ParamDropMemory();
    const refusal = { kind: "drop", param: "reasoning_effort" } as const;
    expect(memory.record({ baseURL: "http://x/v1/", model: "a", refusal })).toBe(true);
    expect(memory.record({ baseURL: "http://x/v1", model: "a", refusal })).toBe(false);
    expect([...memory.get("http://x/v1", "a").dropped]).toEqual(["reasoning_effort"]);
    expect(memory.get("http://x/v1", "b").dropped.size).toBe(0);
    expect(memory.get("http://y/v1", "a").dropped.size).toBe(0);
    memory.clear();
    expect(memory.get("http://x/v1", "a").dropped.size).toBe(0);
  });
});
