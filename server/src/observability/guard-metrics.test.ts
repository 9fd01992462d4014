import { fixtureReply, startOpenAiFixtureServer, type OpenAiFixtureServer } from "@waddle/planner/testing";
import { AgentSpec, type RunEvent } from "@waddle/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";
import { waitForRun } from "../testing/wait-for-run.js";
import { readMetric } from "../testing/read-metric.js";

const KEY = "fixture-key-0078";
let fixture: OpenAiFixtureServer;
let server: TestServer;

beforeAll(async () => {
  fixture = await startOpenAiFixtureServer({ apiKey: KEY, models: ["house-model"] });
  server = await startTestServer({ env: { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: fixture.baseURL } });
});
afterAll(async () => {
  await server.stop();
  await fixture.close();
});

const getVerdictCount = (labels: Record<string, string>) =>
  readMetric(server, "waddle_guard_verdicts_total", labels);

describe("guard verdicts in /metrics", () => {
  it("counts each guard_verdict by stage, check, verdict and action, never with the text", async () => {
    const spec = AgentSpec.parse({
      version: 1,
      id: "crm-desk",
      name: "CRM desk",
      llm: { provider: "openai", model: "house-model" },
      tools: [
        {
          name: "find_customer",
          desc: "Finds a customer",
          sideEffects: "read",
          argsSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
          impl: { kind: "mock", output: { email: "ana.lopez@example.com" } },
        },
      ],
      guards: [
        { name: "no-pii", on: "tool_result", check: { kind: "pii" }, action: "redact" },
        { name: "short", on: "output", check: { kind: "max_length", chars: 500 }, action: "block" },
      ],
    });
    expect((await server.request("/api/agents", { method: "POST", json: spec })).status).toBe(201);
    const agent = { agent_id: "crm-desk" };
    const redacted = { ...agent, on: "tool_result", check: "pii", verdict: "fail", action: "redact" };
    const passed = { ...agent, on: "output", check: "max_length", verdict: "pass", action: "none" };
    const before = { redacted: await getVerdictCount(redacted), passed: await getVerdictCount(passed) };
    fixture.enqueue(
      fixtureReply.json({ next_node: "find_customer", args: { name: "Ana" } }),
      fixtureReply.finalAnswer("Ana's email is on file."),
    );
    const started = await server.request("/api/runs", {
      method: "POST",
      json: { agentId: "crm-desk", query: "How do I reach Ana?" },
    });
    expect(started.status).toBe(202);
    const runId = started.body.runId as string;
    expect((await waitForRun(server, runId)).status).toBe("finished");
    const events = (await server.request(`/api/runs/${runId}/events`)).body.events as RunEvent[];
    expect(events.filter((event) => event.type === "guard_verdict")).toHaveLength(2);
    expect(await getVerdictCount(redacted)).toBe(before.redacted + 1);
    expect(await getVerdictCount(passed)).toBe(before.passed + 1);
    expect((await server.request("/metrics")).text).not.toContain("ana.lopez");
  });
});
