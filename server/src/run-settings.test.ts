import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { AgentSpec, type RunEvent } from "@waddle/protocol";
import { fixtureReply, startOpenAiFixtureServer, type OpenAiFixtureServer } from "@waddle/planner/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError } from "./shared/config-error.js";
import { readServerConfig } from "./config.js";
import { readPriceTable, readRunSettings } from "./run-settings.js";
import { startTestServer, type TestServer } from "./testing/start-test-server.js";
import { waitForRun } from "./testing/wait-for-run.js";

const dir = mkdtempSync(path.join(tmpdir(), "waddle-settings-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("WADDLE_PRICES", () => {
  it("reads inline JSON or a file of USD per million tokens by model", () => {
    expect(readPriceTable('{"my-model": {"inputPerMTok": 0.2, "outputPerMTok": 0.8}}', dir)).toEqual({
      "my-model": { inputPerMTok: 0.2, outputPerMTok: 0.8 },
    });
    writeFileSync(
      path.join(dir, "prices.json"),
      '{"r1": {"inputPerMTok": 1, "outputPerMTok": 2, "reasoningPerMTok": 3}}',
    );
    expect(readPriceTable("prices.json", dir)).toEqual({
      r1: { inputPerMTok: 1, outputPerMTok: 2, reasoningPerMTok: 3 },
    });
    expect(readPriceTable(" ", dir)).toBeUndefined();
  });

  it("refuses what it cannot use, naming WADDLE_PRICES", () => {
    for (const value of [
      "missing.json",
      "{not json",
      '{"m": {"inputPerMTok": -1, "outputPerMTok": 1}}',
      '{"m": {"inputPerMTok": 1}}',
      '{"m": {"inputPerMTok": 1, "outputPerMTok": 1, "cachedPerMTok": 1}}',
      '{"m": 3}',
    ]) {
      expect(() => readPriceTable(value, dir), value).toThrow(ConfigError);
      expect(() => readPriceTable(value, dir), value).toThrow(/WADDLE_PRICES/);
    }
  });
});

describe("readRunSettings", () => {
  it("reads what runs may do, for the server and the CLI alike", () => {
    const settings = readRunSettings(
      {
        WADDLE_TOOLS_DIR: "tools",
        WADDLE_HTTP_ALLOW: "api.example.com, 127.0.0.1:8080",
        WADDLE_SECRET_WEATHER: "s3cret-value",
        WADDLE_LLM_ALLOW: "https://api.deepseek.com/v1, http://127.0.0.1:11434",
        WADDLE_LLM_KEY_ENVS: "DEEPSEEK_API_KEY",
        WADDLE_PRICES: '{"deepseek-chat": {"inputPerMTok": 0.3, "outputPerMTok": 0.5}}',
      },
      "/repo",
    );
    expect(settings).toEqual({
      toolsDir: "/repo/tools",
      httpAllow: ["api.example.com", "127.0.0.1:8080"],
      secrets: { WEATHER: "s3cret-value" },
      llmAllow: ["https://api.deepseek.com", "http://127.0.0.1:11434"],
      llmKeyEnvs: ["DEEPSEEK_API_KEY"],
      prices: { "deepseek-chat": { inputPerMTok: 0.3, outputPerMTok: 0.5 } },
    });
    expect(readServerConfig({ WADDLE_LLM_KEY_ENVS: "OPENROUTER_API_KEY" }, "/repo").llmKeyEnvs).toEqual([
      "OPENROUTER_API_KEY",
    ]);
    expect(() => readServerConfig({ WADDLE_LLM_KEY_ENVS: "WADDLE_TOKEN" })).toThrow(ConfigError);
    expect(() => readServerConfig({ WADDLE_LLM_ALLOW: "api.deepseek.com" })).toThrow(/WADDLE_LLM_ALLOW/);
    expect(() => readServerConfig({ WADDLE_PRICES: "[]" })).toThrow(/WADDLE_PRICES/);
  });
});

describe("a run's LLM cost with the server's price table", () => {
  let fixture: OpenAiFixtureServer;
  let server: TestServer;
  beforeAll(async () => {
    fixture = await startOpenAiFixtureServer({ apiKey: "fixture-key-0042", models: ["house-model"] });
    server = await startTestServer({
      env: { OPENAI_API_KEY: "fixture-key-0042", OPENAI_BASE_URL: fixture.baseURL },
      // gpt-4o-mini is in the built-in table too: the server's price replaces it.
      prices: {
        "house-model": { inputPerMTok: 2, outputPerMTok: 10 },
        "gpt-4o-mini": { inputPerMTok: 1_000, outputPerMTok: 1_000 },
      },
    });
  });
  afterAll(async () => {
    await server.stop();
    await fixture.close();
  });

  it.each([
    ["house-model", 1_000 * 2 + 200 * 10],
    ["gpt-4o-mini", 1_000 * 1_000 + 200 * 1_000],
  ])("prices %s from WADDLE_PRICES in llm_call and the run's usage", async (model, microUsd) => {
    fixture.enqueue(
      fixtureReply.finalAnswer("Done.", { model, usage: { prompt_tokens: 1_000, completion_tokens: 200 } }),
    );
    const spec = AgentSpec.parse({
      version: 1,
      id: `priced-${model.replace(/[^a-z0-9]/g, "-")}`,
      name: "Priced",
      llm: { provider: "openai", model },
      tools: [{ name: "lookup", desc: "Looks up", impl: { kind: "mock", output: { ok: true } } }],
    });
    expect((await server.request("/api/agents", { method: "POST", json: spec })).status).toBe(201);
    const started = await server.request("/api/runs", {
      method: "POST",
      json: { agentId: spec.id, query: "q" },
    });
    const run = await waitForRun(server, started.body.runId);
    expect(run.status, JSON.stringify(run.error)).toBe("finished");
    const calls = (await server.store.listEvents(run.id)).filter(
      (event): event is Extract<RunEvent, { type: "llm_call" }> => event.type === "llm_call",
    );
    expect(calls).toHaveLength(1);
    expect(calls[0]!.data.costUsd).toBeCloseTo(microUsd / 1_000_000, 9);
    expect(run.usage.costUsd).toBeCloseTo(microUsd / 1_000_000, 9);
  });
});
