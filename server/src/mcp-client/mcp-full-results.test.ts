import {
  AgentSpec,
  McpServersResponse,
  TERMINAL_RUN_STATUSES,
  type RunEvent,
  type RunRecord,
  type RunStatus,
} from "@waddle/protocol";
import { fixtureReply, startOpenAiFixtureServer, type OpenAiFixtureServer } from "@waddle/planner/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURE_PNG_BASE64, getMcpFixtureStdioConfig } from "../testing/mcp-fixture-server.js";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";
import { waitForRun as waitForEnd } from "../testing/wait-for-run.js";

/** MCP results in full, through the server's runs: resources, binary items, annotations, progress, elicitation. */

function ofType<T extends RunEvent["type"]>(events: RunEvent[], type: T): Extract<RunEvent, { type: T }>[] {
  return events.filter((event): event is Extract<RunEvent, { type: T }> => event.type === type);
}

const single = (id: string, tool: string, extra: Record<string, unknown> = {}, planner = {}) =>
  AgentSpec.parse({
    version: 1,
    id,
    name: id,
    tools: [{ name: tool, desc: tool, impl: { kind: "mcp", server: "fixture", tool }, ...extra }],
    planner,
  });

async function startAgentRun(server: TestServer, spec: AgentSpec, query: string): Promise<string> {
  expect((await server.request("/api/agents", { method: "POST", json: spec })).status).toBe(201);
  const started = await server.request("/api/runs", { method: "POST", json: { agentId: spec.id, query } });
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  return started.body.runId as string;
}

const SETTLED: ReadonlySet<RunStatus> = new Set([...TERMINAL_RUN_STATUSES, "paused"]);

/** The run once it has ended or paused; with `after`, a pause other than the one of that resume token. */
async function waitForRun(
  server: TestServer,
  runId: string,
  options: { after?: string } = {},
): Promise<RunRecord> {
  for (;;) {
    const run = await waitForEnd(server, runId, SETTLED);
    if (run.status !== "paused" || run.pause?.resumeToken !== options.after) return run;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface Stats {
  calls: string[];
  progressTokens: (string | number)[];
  elicitations: { action: string; content?: Record<string, unknown> }[];
}

describe("MCP results in full, run by the server with the offline model", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ mcpServers: [getMcpFixtureStdioConfig("fixture")] });
  });
  afterAll(() => server.stop());

  let statsRuns = 0;
  async function getStats(): Promise<Stats> {
    statsRuns += 1;
    const runId = await startAgentRun(server, single(`stats-${statsRuns}`, "stats"), "Stats");
    expect((await waitForRun(server, runId)).status).toBe("finished");
    return ofType(await server.store.listEvents(runId), "tool_end")[0]?.data.observation as Stats;
  }

  it("lists annotated side effects, and task-only tools as unavailable with the reason", async () => {
    const body = McpServersResponse.parse((await server.request("/api/mcp/servers")).body);
    const tools = new Map(body.servers[0]!.tools.map((tool) => [tool.name, tool]));
    expect(tools.get("echo")?.sideEffects).toBe("read");
    expect(tools.get("delete_page")?.sideEffects).toBe("write");
    expect(tools.get("fetch_url")?.sideEffects).toBe("external");
    expect(tools.get("note")?.sideEffects).toBe("stateful");
    expect(tools.get("add")?.sideEffects).toBeUndefined();
    expect(tools.get("reindex")?.unavailable).toMatch(/MCP task/);
    expect(tools.get("summarize")?.unavailable).toBeUndefined();
  });

  it("gives the model the text of embedded resources, and binary content only as references", async () => {
    const runId = await startAgentRun(server, single("mcp-document", "document"), "Read the handbook");
    expect((await waitForRun(server, runId)).status).toBe("finished");
    const events = await server.store.listEvents(runId);
    const observation = ofType(events, "tool_end")[0]?.data.observation as {
      text: string;
      content: Record<string, unknown>[];
    };
    expect(observation.text).toContain("Here is the handbook.");
    expect(observation.text).toContain(
      "[resource file:///handbook.md (text/markdown)]\n# Handbook\nRefunds take 5 days.",
    );
    expect(observation.content).toEqual([
      {
        type: "resource",
        uri: "file:///handbook.md",
        mimeType: "text/markdown",
        chars: "# Handbook\nRefunds take 5 days.".length,
        inText: true,
      },
      { type: "resource", uri: "file:///handbook.pdf", mimeType: "application/pdf", bytes: 16 },
      { type: "resource_link", uri: "file:///appendix.md", name: "appendix", mimeType: "text/markdown" },
    ]);
    expect(JSON.stringify(events)).not.toContain(Buffer.from("%PDF-1.7 fixture").toString("base64"));
  });

  it("turns images and audio into references with MIME type and size, never their bytes", async () => {
    const runId = await startAgentRun(server, single("mcp-picture", "picture"), "Show the picture");
    expect((await waitForRun(server, runId)).status).toBe("finished");
    const events = await server.store.listEvents(runId);
    expect(ofType(events, "tool_end")[0]?.data.observation).toEqual({
      text: "A picture and a beep.",
      content: [
        { type: "image", mimeType: "image/png", bytes: Buffer.from(FIXTURE_PNG_BASE64, "base64").length },
        { type: "audio", mimeType: "audio/wav", bytes: 1_000 },
      ],
    });
    const stored = JSON.stringify(events);
    expect(stored).not.toContain(FIXTURE_PNG_BASE64);
    expect(stored).not.toContain(Buffer.alloc(1_000, 7).toString("base64").slice(0, 40));
  });

  it("sends a progressToken and shows the server's progress as tool_progress events", async () => {
    const runId = await startAgentRun(server, single("mcp-count", "count"), "Count");
    expect((await waitForRun(server, runId)).status).toBe("finished");
    const events = await server.store.listEvents(runId);
    const progress = ofType(events, "tool_progress").map((event) => event.data);
    expect(progress).toEqual([
      { tool: "count", callId: expect.any(String), progress: 1, total: 3, message: "counted 1" },
      { tool: "count", callId: expect.any(String), progress: 2, total: 3, message: "counted 2" },
      { tool: "count", callId: expect.any(String), progress: 3, total: 3, message: "counted 3" },
    ]);
    const start = ofType(events, "tool_start")[0]!;
    const end = ofType(events, "tool_end")[0]!;
    expect(progress.every((event) => event.callId === start.data.callId)).toBe(true);
    const seqs = ofType(events, "tool_progress").map((event) => event.seq);
    expect(Math.min(...seqs)).toBeGreaterThan(start.seq);
    expect(Math.max(...seqs)).toBeLessThan(end.seq);
    expect((await getStats()).progressTokens.length).toBeGreaterThan(0);
  });

  it("lets the annotations set the side effects however the spec saved them (an approval policy sees write)", async () => {
    // Saved as "read" through REST, but the server annotates delete_page as destructive.
    const spec = single(
      "mcp-delete",
      "delete_page",
      { sideEffects: "read" },
      { approvalSideEffects: ["write"] },
    );
    const runId = await startAgentRun(server, spec, "Delete the page");
    const paused = await waitForRun(server, runId);
    expect(paused.status).toBe("paused");
    expect(paused.pause).toMatchObject({ reason: "approval_required" });
    const events = await server.store.listEvents(runId);
    expect(ofType(events, "pause")[0]?.data.payload).toMatchObject({
      tool: "delete_page",
      sideEffects: "write",
    });
    expect(ofType(events, "tool_start")).toEqual([]);
  });

  it("pauses at an elicitation (await_input) until a person answers, then the server gets the answer", async () => {
    const before = await getStats();
    const runId = await startAgentRun(server, single("mcp-confirm", "confirm"), "Refund the order");
    const paused = await waitForRun(server, runId);
    expect(paused.status).toBe("paused");
    expect(paused.pause).toMatchObject({ reason: "await_input" });
    const [pause] = ofType(await server.store.listEvents(runId), "pause");
    expect(pause?.data.payload).toMatchObject({
      kind: "mcp_elicitation",
      server: "fixture",
      tool: "confirm",
      message: "Refund 20 EUR?",
      requestedSchema: { type: "object", required: ["approve"] },
    });
    // An answer that does not fit the form pauses again, saying why.
    const wrong = await server.request(`/api/runs/${runId}/resume`, {
      method: "POST",
      json: {
        resumeToken: paused.pause!.resumeToken,
        decision: "approve",
        userInput: '{"reason": "damaged"}',
      },
    });
    expect(wrong.status).toBe(202);
    const again = await waitForRun(server, runId, { after: paused.pause!.resumeToken });
    expect(again.status).toBe("paused");
    const pauses = ofType(await server.store.listEvents(runId), "pause");
    expect(pauses.at(-1)?.data.payload).toMatchObject({ problem: '"approve" is required' });
    const answered = await server.request(`/api/runs/${runId}/resume`, {
      method: "POST",
      json: {
        resumeToken: again.pause!.resumeToken,
        decision: "approve",
        userInput: '{"approve": true, "reason": "damaged"}',
      },
    });
    expect(answered.status).toBe(202);
    const finished = await waitForRun(server, runId, { after: again.pause!.resumeToken });
    expect(finished.status, JSON.stringify(finished.error)).toBe("finished");
    const ends = ofType(await server.store.listEvents(runId), "tool_end");
    expect(ends.at(-1)?.data.observation).toEqual({ text: "refunded 20 EUR: damaged" });
    const seen = (await getStats()).elicitations.slice(before.elicitations.length);
    // The first two calls were stopped at their elicitation; the third got the person's answer.
    expect(seen.at(-1)).toEqual({ action: "accept", content: { approve: true, reason: "damaged" } });
  });

  it("refuses a call to a task-only tool with the reason, without calling it", async () => {
    const before = await getStats();
    const runId = await startAgentRun(server, single("mcp-reindex", "reindex"), "Reindex");
    await waitForRun(server, runId);
    const errors = ofType(await server.store.listEvents(runId), "tool_error");
    expect(errors[0]?.data.failure).toMatchObject({ error_code: "mcp_tool_unavailable" });
    expect(errors[0]?.data.failure.message).toMatch(/MCP task/);
    expect((await getStats()).calls.slice(before.calls.length)).not.toContain("reindex");
  });

  it("refuses sampling on the offline model with a reason the tool reports", async () => {
    const runId = await startAgentRun(server, single("mcp-summarize-offline", "summarize"), "Summarize");
    await waitForRun(server, runId);
    const errors = ofType(await server.store.listEvents(runId), "tool_error");
    expect(errors[0]?.data.failure.message).toMatch(/offline model, which cannot answer sampling/);
  });
});

describe("MCP sampling answered by the agent's LLM (local OpenAI-compatible fixture)", () => {
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

  it("answers the server's sampling request with the agent's model and counts its usage", async () => {
    fixture.enqueue(
      fixtureReply.json({ next_node: "summarize", args: { text: "Refunds take five days." } }),
      fixtureReply.text("Refunds: five days."),
      fixtureReply.finalAnswer("Done."),
    );
    const spec = AgentSpec.parse({
      ...single("mcp-summarize", "summarize"),
      llm: { provider: "openai", model: "house-model" },
    });
    const runId = await startAgentRun(server, spec, "Summarize the policy");
    const run = await waitForRun(server, runId);
    expect(run.status, JSON.stringify(run.error)).toBe("finished");
    const events = await server.store.listEvents(runId);
    expect(ofType(events, "tool_end")[0]?.data.observation).toEqual({
      text: "summary by house-model: Refunds: five days.",
    });
    const sampling = JSON.stringify(fixture.completionRequests[1]?.body);
    expect(sampling).toContain("You summarize.");
    expect(sampling).toContain("Summarize: Refunds take five days.");
    expect(ofType(events, "llm_call").map((event) => event.data.purpose)).toContain("tool");
  });

  it("counts an mcp tool's annotated side effects when /v1 answers a run that failed after it", async () => {
    fixture.enqueue(fixtureReply.json({ next_node: "delete_page", args: { id: "p7" } }), {
      kind: "http_error",
      status: 401,
      message: "Incorrect API key",
      type: "invalid_request_error",
    });
    // Saved as "read"; the server annotates delete_page as destructive, so a retry would delete again.
    const spec = AgentSpec.parse({
      ...single("mcp-deleter", "delete_page", { sideEffects: "read" }),
      llm: { provider: "openai", model: "house-model" },
    });
    expect((await server.request("/api/agents", { method: "POST", json: spec })).status).toBe(201);
    const answer = await server.request("/v1/chat/completions", {
      method: "POST",
      json: { model: "mcp-deleter", messages: [{ role: "user", content: "Delete page 7" }] },
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: { code: "run_failed_after_side_effects" } });
    expect(JSON.stringify(answer.body)).toContain("delete_page (write)");
  });
});
