import { AgentSpec, type LlmConfig } from "@waddle/protocol";
import { LlmError, type LlmClient } from "@waddle/planner";
import { describe, expect, it } from "vitest";
import { BoundedErrorLlm, MAX_LLM_ERROR_MESSAGE } from "../llm/bounded-error-llm.js";
import { LlmEndpointError, LlmEndpointPolicy } from "../llm/llm-endpoint-policy.js";
import { createLogger } from "../shared/logger.js";
import { MemoryStore } from "../store/memory-store.js";
import { HostAllowList } from "../tools/host-allow-list.js";
import { SecretRedactor } from "../secrets/secret-redactor.js";
import { ToolRegistry } from "../tools/tool-registry.js";
import { createDefaultPlannerFactory, createServerLlm } from "./default-planner-factory.js";

const env = { OPENAI_API_KEY: "sk-server-key-0042", HOME: "/root" };
const policy = new LlmEndpointPolicy({ env, allow: ["http://127.0.0.1:11434"] });
const redactor = new SecretRedactor([env.OPENAI_API_KEY]);
const logger = createLogger({ level: "silent" });
const internal: LlmConfig = { provider: "openai", model: "m", temperature: 0, baseUrl: "http://10.0.0.5/v1" };

describe("createServerLlm", () => {
  it("refuses a config the policy does not allow before making a client, even without its key", () => {
    for (const config of [internal, { ...internal, baseUrl: undefined, apiKeyEnv: "NOT_SET_ANYWHERE" }]) {
      expect(() => createServerLlm({ config, path: "routerLlm", env, policy, redactor, logger })).toThrow(
        LlmEndpointError,
      );
    }
    const allowed = createServerLlm({
      config: { ...internal, baseUrl: "http://127.0.0.1:11434/v1" },
      path: "llm",
      env,
      policy,
      redactor,
      logger,
    });
    expect(allowed).toBeInstanceOf(BoundedErrorLlm);
    expect(allowed.offline).toBe(false);
  });
});

describe("the default planner factory", () => {
  const create = createDefaultPlannerFactory({
    store: new MemoryStore(),
    registry: new ToolRegistry(),
    env,
    llmPolicy: policy,
    allowList: new HostAllowList([]),
    secrets: {},
    redactor,
    logger,
  });
  const spec = (extra: Record<string, unknown>) =>
    AgentSpec.parse({
      version: 1,
      id: "built",
      name: "Built",
      tools: [{ name: "echo", desc: "Echoes", impl: { kind: "mock" } }],
      ...extra,
    });

  it.each([
    ["summarizerLlm", { summarizerLlm: internal }],
    ["routerLlm", { routerLlm: internal }],
    ["candidateLlms[0]", { candidateLlms: [{ ...internal, id: "inside" }] }],
    [
      "tools[1].impl.llm",
      {
        tools: [
          { name: "echo", desc: "Echoes", impl: { kind: "mock" } },
          { name: "ask", desc: "Asks", impl: { kind: "llm", prompt: "x", llm: internal } },
        ],
      },
    ],
  ])("refuses to build a planner whose %s is not allowed", async (path, extra) => {
    await expect(create({ spec: spec(extra), runId: "run_x" })).rejects.toMatchObject({
      code: "llm_endpoint_not_allowed",
      refusals: [expect.objectContaining({ path, setting: "WADDLE_LLM_ALLOW" })],
    });
  });

  it("builds one whose endpoints are allowed", async () => {
    const built = await create({
      spec: spec({ summarizerLlm: { ...internal, baseUrl: "http://127.0.0.1:11434" } }),
      runId: "run_y",
    });
    expect(built.offline).toBe(true);
  });
});

describe("BoundedErrorLlm", () => {
  const failing = (error: Error): LlmClient => ({
    provider: "openai",
    model: "m",
    complete: () => Promise.reject(error),
  });

  it("cuts an endpoint's long error to a short message without secrets, keeping code and details", async () => {
    const long = new LlmError(
      "http_error",
      `m at 10.0.0.5 refused the request (HTTP 400): ${"<html>".repeat(500)} key ${env.OPENAI_API_KEY}`,
      { details: { status: 400 } },
    );
    const error = await new BoundedErrorLlm(failing(long), redactor)
      .complete({ messages: [] })
      .catch((e) => e);
    expect(error).toBeInstanceOf(LlmError);
    expect(error).toMatchObject({ code: "http_error", details: { status: 400 } });
    expect(error.message.length).toBeLessThanOrEqual(MAX_LLM_ERROR_MESSAGE);
    expect(error.message).toMatch(/^m at 10\.0\.0\.5 refused the request \(HTTP 400\)/);
    const short = new LlmError("timeout", "m did not answer within 10 ms.");
    await expect(new BoundedErrorLlm(failing(short), redactor).complete({ messages: [] })).rejects.toBe(
      short,
    );
    const leaky = new Error(`socket hang up, key ${env.OPENAI_API_KEY}`);
    const scrubbed = await new BoundedErrorLlm(failing(leaky), redactor)
      .complete({ messages: [] })
      .catch((e) => e);
    expect(scrubbed.message).toBe("socket hang up, key [redacted]");
  });
});
