import { AgentSpec, type LlmConfig } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../shared/config-error.js";
import {
  LlmEndpointError,
  LlmEndpointPolicy,
  parseLlmAllow,
  parseLlmKeyEnvs,
} from "./llm-endpoint-policy.js";

const openai = (extra: Partial<LlmConfig>): LlmConfig => ({
  provider: "openai",
  model: "m",
  temperature: 0,
  ...extra,
});

describe("LlmEndpointPolicy", () => {
  const policy = new LlmEndpointPolicy({
    env: { OPENAI_BASE_URL: "https://gateway.example.com/openai/v1" },
    allow: ["https://api.deepseek.com", "http://127.0.0.1:11434/v1"],
    keyEnvs: ["DEEPSEEK_API_KEY"],
  });

  it("allows the server's own endpoint and key, the default OpenAI endpoint and what the settings list", () => {
    for (const config of [
      openai({}),
      openai({ baseUrl: "https://api.openai.com/v1" }),
      openai({ baseUrl: "https://gateway.example.com/other/path" }),
      openai({ baseUrl: "https://API.deepseek.com:443/v1", apiKeyEnv: "DEEPSEEK_API_KEY" }),
      openai({ baseUrl: "http://127.0.0.1:11434/v1", apiKeyEnv: "OPENAI_API_KEY" }),
      { ...openai({ baseUrl: "http://10.0.0.1/v1", apiKeyEnv: "HOME" }), provider: "offline" as const },
    ]) {
      expect(policy.check(config, "llm"), JSON.stringify(config)).toEqual([]);
    }
  });

  it("refuses any other origin and any other variable, naming the setting to change", () => {
    expect(policy.check(openai({ baseUrl: "http://127.0.0.1:8080/v1", apiKeyEnv: "HOME" }), "llm")).toEqual([
      expect.objectContaining({
        field: "baseUrl",
        value: "http://127.0.0.1:8080",
        setting: "WADDLE_LLM_ALLOW",
        message: expect.stringContaining("add http://127.0.0.1:8080 to WADDLE_LLM_ALLOW"),
      }),
      expect.objectContaining({
        field: "apiKeyEnv",
        value: "HOME",
        setting: "WADDLE_LLM_KEY_ENVS",
        message: expect.stringContaining("add HOME to WADDLE_LLM_KEY_ENVS"),
      }),
    ]);
    // Same host, other scheme or port: another origin.
    expect(policy.check(openai({ baseUrl: "http://api.deepseek.com/v1" }), "llm")).toHaveLength(1);
    expect(policy.check(openai({ baseUrl: "http://127.0.0.1:11435/v1" }), "llm")).toHaveLength(1);
    expect(policy.check(openai({ apiKeyEnv: "WADDLE_TOKEN" }), "llm")[0]?.message).toContain(
      "one of the server's own settings",
    );
  });

  it("checks every LLM config of a spec, with its path", () => {
    const bad = { baseUrl: "http://169.254.169.254/v1" };
    const spec = AgentSpec.parse({
      version: 1,
      id: "many",
      name: "Many",
      llm: openai({}),
      summarizerLlm: openai(bad),
      routerLlm: openai({ apiKeyEnv: "AWS_SECRET_ACCESS_KEY" }),
      candidateLlms: [
        { ...openai({}), id: "ok" },
        { ...openai(bad), id: "bad" },
      ],
      tools: [
        { name: "mock_one", impl: { kind: "mock" } },
        { name: "ask", impl: { kind: "llm", prompt: "x", llm: openai(bad) } },
      ],
    });
    expect(policy.checkSpec(spec).map((refusal) => `${refusal.path}.${refusal.field}`)).toEqual([
      "summarizerLlm.baseUrl",
      "routerLlm.apiKeyEnv",
      "candidateLlms[1].baseUrl",
      "tools[1].impl.llm.baseUrl",
    ]);
    const error = (() => {
      try {
        policy.assertSpec(spec);
      } catch (caught) {
        return caught as LlmEndpointError;
      }
      throw new Error("expected a refusal");
    })();
    expect(error).toBeInstanceOf(LlmEndpointError);
    expect(error.code).toBe("llm_endpoint_not_allowed");
    expect(error.message).toMatch(
      /^summarizerLlm\.baseUrl points at http:\/\/169\.254\.169\.254.*\(and 3 more in details\.refusals\)\.$/,
    );
    expect(error.details.refusals[1]).toEqual({
      path: "routerLlm",
      field: "apiKeyEnv",
      value: "AWS_SECRET_ACCESS_KEY",
      setting: "WADDLE_LLM_KEY_ENVS",
    });
  });

  it("without settings allows only OpenAI's endpoint and OPENAI_API_KEY", () => {
    const strict = new LlmEndpointPolicy({ env: {} });
    expect(strict.describe()).toEqual({ origins: ["https://api.openai.com"], keyEnvs: ["OPENAI_API_KEY"] });
    expect(strict.check(openai({ baseUrl: "https://api.deepseek.com" }), "llm")).toHaveLength(1);
  });
});

describe("the settings", () => {
  it("parse origins and variable names, and refuse what cannot be meant", () => {
    expect(parseLlmAllow(" https://api.deepseek.com/v1 , http://127.0.0.1:11434 ,")).toEqual([
      "https://api.deepseek.com",
      "http://127.0.0.1:11434",
    ]);
    expect(parseLlmKeyEnvs("DEEPSEEK_API_KEY, OPENROUTER_API_KEY")).toEqual([
      "DEEPSEEK_API_KEY",
      "OPENROUTER_API_KEY",
    ]);
    expect(() => parseLlmAllow("api.deepseek.com")).toThrow(ConfigError);
    expect(() => parseLlmAllow("ftp://files.example.com")).toThrow(/WADDLE_LLM_ALLOW/);
    expect(() => parseLlmKeyEnvs("WADDLE_TOKEN")).toThrow(/WADDLE_\* variables/);
    expect(() => parseLlmKeyEnvs("NOT-A-NAME")).toThrow(/WADDLE_LLM_KEY_ENVS/);
    expect(() => new LlmEndpointPolicy({ env: { OPENAI_BASE_URL: "localhost:11434" } })).toThrow(
      /OPENAI_BASE_URL/,
    );
  });
});
