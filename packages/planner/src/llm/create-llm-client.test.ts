import { LlmConfig } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { createLlmClient } from "./create-llm-client.js";
import { isLlmError } from "../errors/llm-error.js";
import { OfflineModel } from "./offline/offline-model.js";
import { OpenAiClient } from "./openai/openai-client.js";

describe("createLlmClient", () => {
  it("returns the offline model for provider offline", () => {
    const client = createLlmClient(LlmConfig.parse({ provider: "offline", model: "offline" }), { env: {} });
    expect(client).toBeInstanceOf(OfflineModel);
    expect(client.offline).toBe(true);
  });

  it("returns an OpenAiClient when the key is there", () => {
    const config = LlmConfig.parse({
      provider: "openai",
      model: "gpt-4.1-mini",
      baseUrl: "http://127.0.0.1:9/v1",
    });
    const client = createLlmClient(config, { env: { OPENAI_API_KEY: "sk-x" } });
    expect(client).toBeInstanceOf(OpenAiClient);
    expect([client.provider, client.model, client.offline]).toEqual(["openai", "gpt-4.1-mini", false]);
  });

  it("fails with missing_api_key naming the variable to set", () => {
    const config = LlmConfig.parse({
      provider: "openai",
      model: "deepseek-chat",
      apiKeyEnv: "DEEPSEEK_API_KEY",
    });
    let error: unknown;
    try {
      createLlmClient(config, { env: { OPENAI_API_KEY: "sk-other" } });
    } catch (caught) {
      error = caught;
    }
    expect(isLlmError(error, "missing_api_key")).toBe(true);
    expect((error as Error).message).toContain("DEEPSEEK_API_KEY");
    expect((error as { details?: unknown }).details).toMatchObject({ variable: "DEEPSEEK_API_KEY" });
  });
});
