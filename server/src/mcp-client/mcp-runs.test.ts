import { AgentSpec, McpServersResponse, type RunEvent } from "@waddle/protocol";
import { fixtureReply, startOpenAiFixtureServer, type OpenAiFixtureServer } from "@waddle/planner/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getMcpFixtureStdioConfig } from "../testing/mcp-fixture-server.js";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";
import { waitForRun } from "../testing/wait-for-run.js";

/** Two mcp tools with empty schemas (filled from the server's listing) and one the agent gives in full. */
function createMcpAgent(id: string, llm?: Record<string, unknown>): AgentSpec {
  return AgentSpec.parse({
    version: 1,
    id,
    name: id,
    ...(llm ? { llm } : {}),
    tools: [
      { name: "say", impl: { kind: "mcp", server: "fixture", tool: "echo" } },
      {
        name: "sum",
        desc: "Adds a and b.",
        argsSchema: {
          type: "object",
          properties: { a: { type: "number", default: 20 }, b: { type: "number", default: 22 } },
          required: ["a", "b"],
        },
        outSchema: { type: "object", properties: { sum: { type: "number" } }, required: ["sum"] },
        impl: { kind: "mcp", server: "fixture", tool: "add" },
      },
      { name: "broken", impl: { kind: "mcp", server: "fixture", tool: "fail" } },
    ],
    // The offline model follows the ordering; the scripted model chooses for itself.
    hints: llm ? {} : { ordering_hints: ["say", "sum"], disallow_nodes: ["broken"] },
  });
}

async function startAgentRun(server: TestServer, spec: AgentSpec, query: string): Promise<string> {
  expect((await server.request("/api/agents", { method: "POST", json: spec })).status).toBe(201);
  const started = await server.request("/api/runs", { method: "POST", json: { agentId: spec.id, query } });
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  return started.body.runId as string;
}

function ofType<T extends RunEvent["type"]>(events: RunEvent[], type: T): Extract<RunEvent, { type: T }>[] {
  return events.filter((event): event is Extract<RunEvent, { type: T }> => event.type === type);
}

describe("an agent with mcp tools, run by the server with the offline model", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ mcpServers: [getMcpFixtureStdioConfig("fixture")] });
  });
  afterAll(() => server.stop());

  it("lists the server and its tools at GET /api/mcp/servers", async () => {
    const answer = await server.request("/api/mcp/servers");
    expect(answer.status).toBe(200);
    const body = McpServersResponse.parse(answer.body);
    expect(body.servers).toHaveLength(1);
    expect(body.servers[0]).toMatchObject({ name: "fixture", transport: "stdio", status: "connected" });
    expect(body.servers[0]?.tools.map((tool) => tool.name)).toContain("echo");
  });

  it("runs to the end, calling the MCP tools with args from their schemas' defaults", async () => {
    const runId = await startAgentRun(server, createMcpAgent("mcp-offline"), "Say something, then add");
    const run = await waitForRun(server, runId);
    expect(run.status, JSON.stringify(run.error)).toBe("finished");
    expect(run.offline).toBe(true);
    const events = await server.store.listEvents(runId);
    const started = ofType(events, "tool_start").map((event) => event.data.tool);
    const ended = ofType(events, "tool_end");
    expect(started).toEqual(expect.arrayContaining(["say", "sum"]));
    expect(ended.map((event) => event.data.tool)).toEqual(expect.arrayContaining(["say", "sum"]));
    expect(JSON.stringify(ended.find((event) => event.data.tool === "say")?.data.observation)).toContain(
      "echo: hello",
    );
    expect(JSON.stringify(ended.find((event) => event.data.tool === "sum")?.data.observation)).toContain(
      '"sum":42',
    );
    expect(ofType(events, "tool_error")).toEqual([]);
  });

  const single = (id: string, tool: string, extra: Record<string, unknown> = {}) =>
    AgentSpec.parse({
      version: 1,
      id,
      name: id,
      tools: [{ name: tool, desc: tool, impl: { kind: "mcp", server: "fixture", tool }, ...extra }],
    });

  let statsRuns = 0;
  /** What the fixture process has seen (calls, cancelled requests), read through an agent that calls `stats`. */
  async function getStats(): Promise<{ calls: string[]; cancelled: string[] }> {
    statsRuns += 1;
    const statsRun = await startAgentRun(server, single(`mcp-stats-${statsRuns}`, "stats"), "Stats");
    expect((await waitForRun(server, statsRun)).status).toBe("finished");
    const [seen] = ofType(await server.store.listEvents(statsRun), "tool_end");
    return seen?.data.observation as { calls: string[]; cancelled: string[] };
  }

  it("cancels a run in an MCP call: the server is told, and sees the cancel", async () => {
    const before = await getStats();
    const runId = await startAgentRun(server, single("mcp-slow", "slow"), "Wait");
    // cancel once the call has reached the server (before that, nothing is sent to cancel)
    for (let tries = 0; tries < 50; tries += 1) {
      const { calls } = await getStats();
      if (calls.length > before.calls.length) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await server.request(`/api/runs/${runId}/cancel`, { method: "POST" })).status).toBe(200);
    expect((await waitForRun(server, runId)).status).toBe("cancelled");
    expect((await getStats()).cancelled).toHaveLength(before.cancelled.length + 1);
  });

  it("times a call out at the tool's timeoutMs, retries it per its policy, and cancels each attempt", async () => {
    const before = await getStats();
    const spec = single("mcp-timeout", "slow", {
      timeoutMs: 1_000,
      retry: { maxAttempts: 2, backoffMs: 0, maxBackoffMs: 0 },
    });
    const runId = await startAgentRun(server, spec, "Wait");
    await waitForRun(server, runId);
    const events = await server.store.listEvents(runId);
    expect(ofType(events, "tool_start").map((event) => event.data.attempt)).toEqual([1, 2]);
    expect(ofType(events, "tool_error").map((event) => event.data.failure.error_code)).toEqual(["timeout"]);
    expect((await getStats()).cancelled).toHaveLength(before.cancelled.length + 2);
  });

  it("refuses a run whose mcp tool names a server WADDLE_MCP_SERVERS does not list (422)", async () => {
    const spec = AgentSpec.parse({
      version: 1,
      id: "mcp-elsewhere",
      name: "Elsewhere",
      tools: [{ name: "remote", desc: "d", impl: { kind: "mcp", server: "elsewhere", tool: "echo" } }],
    });
    expect((await server.request("/api/agents", { method: "POST", json: spec })).status).toBe(201);
    const answer = await server.request("/api/runs", {
      method: "POST",
      json: { agentId: spec.id, query: "q" },
    });
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({
      code: "mcp_server_not_configured",
      details: { refusals: [{ tool: "remote", server: "elsewhere", path: "tools[0].impl.server" }] },
    });
    expect(answer.body.message).toContain("WADDLE_MCP_SERVERS");
  });
});

describe("an agent with mcp tools on the local OpenAI-compatible fixture", () => {
  let fixture: OpenAiFixtureServer;
  let server: TestServer;
  beforeAll(async () => {
    fixture = await startOpenAiFixtureServer({ apiKey: "fixture-key-0042", models: ["house-model"] });
    server = await startTestServer({
      env: { OPENAI_API_KEY: "fixture-key-0042", OPENAI_BASE_URL: fixture.baseURL },
      mcpServers: [getMcpFixtureStdioConfig("fixture")],
    });
  });
  afterAll(async () => {
    await server.stop();
    await fixture.close();
  });

  it("shows the model an MCP error result as a failure, and the model goes on", async () => {
    fixture.enqueue(
      fixtureReply.json({ next_node: "broken", args: { reason: "quota exceeded" } }),
      fixtureReply.json({ next_node: "sum", args: { a: 1, b: 2 } }),
      fixtureReply.finalAnswer("The sum is 3."),
    );
    const spec = createMcpAgent("mcp-remote", { provider: "openai", model: "house-model" });
    const runId = await startAgentRun(server, spec, "Add one and two");
    const run = await waitForRun(server, runId);
    expect(run.status, JSON.stringify(run.error)).toBe("finished");
    expect(run.offline).toBe(false);
    const events = await server.store.listEvents(runId);
    const errors = ofType(events, "tool_error");
    expect(errors.map((event) => [event.data.tool, event.data.failure.error_code])).toEqual([
      ["broken", "mcp_tool_error"],
    ]);
    expect(ofType(events, "tool_end").map((event) => event.data.tool)).toEqual(["sum"]);
    // the model saw the server's own message on its next call, and the tools' listed schemas
    const second = JSON.stringify(fixture.completionRequests[1]?.body);
    expect(second).toContain("fixture failure: quota exceeded");
    const first = JSON.stringify(fixture.completionRequests[0]?.body);
    expect(first).toContain("Echoes the text back.");
    expect(run.result).toMatchObject({ kind: "finish" });
  });
});
