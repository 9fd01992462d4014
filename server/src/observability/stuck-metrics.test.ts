import { fixtureReply, startOpenAiFixtureServer, type OpenAiFixtureServer } from "@waddle/planner/testing";
import { AgentSpec, type RunEvent } from "@waddle/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";
import { waitForRun } from "../testing/wait-for-run.js";
import { readMetric } from "../testing/read-metric.js";

const KEY = "fixture-key-0077";
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

const getStuckCount = (labels: Record<string, string>) =>
  readMetric(server, "waddle_stuck_detected_total", labels);

describe("a stuck run on the server", () => {
  it("stores stuck_detected with the run's events, finishes as stuck, and /metrics counts it", async () => {
    const spec = AgentSpec.parse({
      version: 1,
      id: "docs-loop",
      name: "Docs loop",
      llm: { provider: "openai", model: "house-model" },
      planner: { stuck: { action: "finish" } },
      tools: [
        {
          name: "search_docs",
          desc: "Search the docs",
          sideEffects: "read",
          argsSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
          impl: { kind: "mock", output: { hits: ["Refunds take 5 days."] } },
        },
      ],
    });
    expect((await server.request("/api/agents", { method: "POST", json: spec })).status).toBe(201);
    const labels = { agent_id: "docs-loop", pattern: "repeat", action: "finish" };
    const before = await getStuckCount(labels);
    const search = fixtureReply.json({ next_node: "search_docs", args: { q: "refund" } });
    fixture.enqueue(search, search, search, fixtureReply.finalAnswer("Refunds take 5 days."));
    const started = await server.request("/api/runs", {
      method: "POST",
      json: { agentId: "docs-loop", query: "How long do refunds take?" },
    });
    expect(started.status).toBe(202);
    const runId = started.body.runId as string;
    const run = await waitForRun(server, runId);
    expect(run.status).toBe("finished");
    const events = (await server.request(`/api/runs/${runId}/events`)).body.events as RunEvent[];
    const stuck = events.filter((event) => event.type === "stuck_detected");
    expect(stuck.map((event) => event.data)).toEqual([
      {
        pattern: "repeat",
        tools: ["search_docs"],
        count: 3,
        action: "finish",
        message: "search_docs called 3 times with the same arguments",
      },
    ]);
    const finished = events.find((event) => event.type === "run_finished");
    expect(finished?.data).toMatchObject({ reason: "stuck", payload: { answer: "Refunds take 5 days." } });
    expect(await getStuckCount(labels)).toBe(before + 1);
  });
});
