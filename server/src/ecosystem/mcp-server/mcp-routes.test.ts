import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Progress } from "@modelcontextprotocol/sdk/types.js";
import { AgentSpec } from "@waddle/protocol";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { sendWithHost } from "../../testing/send-with-host.js";
import { startTestServer, type TestServer } from "../../testing/start-test-server.js";
import { waitForEvent, waitForRun } from "../../testing/wait-for-run.js";

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => undefined)));
});

async function connect(server: TestServer, token?: string): Promise<Client> {
  const client = new Client({ name: "waddle-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
    ...(token ? { requestInit: { headers: { authorization: `Bearer ${token}` } } } : {}),
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

/** The runs of an agent with this query, once there is one. */
async function waitForListedRun(server: TestServer, agentId: string, query: string) {
  for (;;) {
    const runs = (await server.store.listRuns({ agentId })).filter((run) => run.query === query);
    if (runs.length > 0) return runs;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** One slow mock tool: the offline model calls it, then answers. */
const slowAgent = AgentSpec.parse({
  version: 1,
  id: "slow-lookup",
  name: "Slow lookup",
  description: "Looks something up, slowly.",
  tools: [
    { name: "lookup", desc: "Looks up", impl: { kind: "mock", output: { ok: true }, latencyMs: 60_000 } },
  ],
});

describe("POST /mcp: the saved agents as MCP tools", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    expect((await server.request("/api/agents", { method: "POST", json: slowAgent })).status).toBe(201);
  });
  afterAll(() => server.stop());

  it("lists the agents as tools, and agents saved later on the next list", async () => {
    const client = await connect(server);
    const { tools } = await client.listTools();
    const triage = tools.find((tool) => tool.name === "support-triage");
    expect(triage).toMatchObject({
      inputSchema: { type: "object", required: ["query"] },
      outputSchema: { type: "object", required: ["runId", "status", "answer"] },
    });
    expect(triage?.description).toMatch(/support-triage/);
    expect(tools.some((tool) => tool.name === "saved-later")).toBe(false);
    const later = { ...slowAgent, id: "saved-later", description: "Saved after the session began." };
    expect((await server.request("/api/agents", { method: "POST", json: later })).status).toBe(201);
    const again = await client.listTools();
    expect(again.tools.find((tool) => tool.name === "saved-later")?.description).toMatch(/after the session/);
  });

  it("calls an agent: progress per step, the answer and the run id, and the run is listed", async () => {
    const client = await connect(server);
    const progress: Progress[] = [];
    const result = await client.callTool(
      { name: "support-triage", arguments: { query: "My invoice shows a duplicate charge" } },
      undefined,
      { onprogress: (update) => progress.push(update) },
    );
    const structured = result.structuredContent as { runId: string; status: string; answer: string };
    expect(structured).toMatchObject({ status: "finished", runId: expect.stringMatching(/^run_/) });
    expect(structured.answer).toMatch(/Duplicate billing charges/);
    expect(result.content).toEqual([{ type: "text", text: structured.answer }]);
    expect(result.isError).toBeFalsy();
    const messages = progress.map((update) => update.message);
    expect(messages[0]).toBe(`Run ${structured.runId} started.`);
    expect(messages).toEqual(
      expect.arrayContaining(["Step 1: triage.", "Step 2: retrieve_docs.", "Step 4: answering."]),
    );
    expect(progress.map((update) => update.progress)).toEqual(progress.map((_, index) => index + 1));
    const listed = await server.request("/api/runs?agentId=support-triage");
    expect(listed.body.runs.map((run: { id: string }) => run.id)).toContain(structured.runId);
    const events = await server.request(`/api/runs/${structured.runId}/events`);
    expect(events.body.events.at(-1).type).toBe("run_finished");
  });

  it("answers a paused run with the pause and how to resume it, which works", async () => {
    const client = await connect(server);
    const result = await client.callTool({
      name: "email-approval",
      arguments: { query: "Email Dana the report" },
    });
    const structured = result.structuredContent as {
      runId: string;
      status: string;
      answer: null;
      pause: {
        reason: string;
        waitingFor: string;
        resumeToken: string;
        resume: { url: string; cli: string };
      };
    };
    const { runId, pause } = structured;
    expect(structured).toMatchObject({ status: "paused", answer: null });
    expect(pause).toMatchObject({
      reason: "approval_required",
      waitingFor: expect.stringMatching(/approve, reject or edit the call to send_email/),
      resume: {
        url: `${server.url}/api/runs/${runId}/resume`,
        cli: `npx waddle resume ${runId} --server ${server.url} --approve`,
      },
    });
    const text = (result.content as { text: string }[])[0]!.text;
    expect(text).toContain(`POST ${server.url}/api/runs/${runId}/resume`);
    expect(text).toContain(pause.resumeToken);
    expect(text).toContain(`npx waddle resume ${runId}`);
    const resumed = await server.request(`/api/runs/${runId}/resume`, {
      method: "POST",
      json: { resumeToken: pause.resumeToken, decision: "approve" },
    });
    expect(resumed.status).toBe(202);
    expect((await waitForRun(server, runId)).status).toBe("finished");
  });

  it("cancels the run when the client cancels the call", async () => {
    const client = await connect(server);
    const controller = new AbortController();
    let runId = "";
    const call = client.callTool({ name: "slow-lookup", arguments: { query: "anything" } }, undefined, {
      signal: controller.signal,
      onprogress: (update) => {
        runId ||= /Run (run_\w+)/.exec(update.message ?? "")?.[1] ?? "";
      },
    });
    const rejected = expect(call).rejects.toThrow();
    await expect.poll(() => runId).not.toBe("");
    await waitForEvent(server, runId, (event) => event.type === "tool_start");
    controller.abort("the user changed their mind");
    await rejected;
    expect((await waitForRun(server, runId)).status).toBe("cancelled");
  });

  it("cancels the run when the HTTP request of a call goes away", async () => {
    const client = await connect(server);
    const sessionId = (client.transport as StreamableHTTPClientTransport).sessionId!;
    const controller = new AbortController();
    const call = fetch(`${server.url}/mcp`, {
      method: "POST",
      signal: controller.signal,
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": sessionId,
        "mcp-protocol-version": (client.transport as StreamableHTTPClientTransport).protocolVersion!,
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 99,
        method: "tools/call",
        params: { name: "slow-lookup", arguments: { query: "gone" } },
      }),
    });
    await call; // the SSE response starts before the run does
    const [run] = await waitForListedRun(server, "slow-lookup", "gone");
    await waitForEvent(server, run!.id, (event) => event.type === "tool_start");
    controller.abort();
    expect((await waitForRun(server, run!.id)).status).toBe("cancelled");
  });

  it("runs a call sent again with its Idempotency-Key once, answering from the first run", async () => {
    const client = new Client({ name: "waddle-test", version: "1.0.0" });
    const key = `mcp-key-${Date.now()}`;
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
        requestInit: { headers: { "idempotency-key": key } },
      }),
    );
    clients.push(client);
    const call = { name: "support-triage", arguments: { query: "Once: a duplicate charge" } };
    const first = (await client.callTool(call)).structuredContent as { runId: string; status: string };
    const again = (await client.callTool(call)).structuredContent as { runId: string; status: string };
    expect(first.status).toBe("finished");
    expect(again).toEqual(first);
    const runs = (await server.store.listRuns({ agentId: "support-triage" })).filter(
      (run) => run.query === call.arguments.query,
    );
    expect(runs.map((run) => run.id)).toEqual([first.runId]);
    // The same key with other arguments is refused, and runs nothing.
    const other = await client.callTool({ ...call, arguments: { query: "Another question" } });
    expect(other.isError).toBe(true);
    expect(JSON.stringify(other.content)).toMatch(/idempotency_key_reused/);
  });

  it("refuses bad calls as MCP errors", async () => {
    const client = await connect(server);
    await expect(client.callTool({ name: "no-such-agent", arguments: { query: "hi" } })).rejects.toThrow(
      /No agent "no-such-agent"/,
    );
    await expect(client.callTool({ name: "support-triage", arguments: { question: "hi" } })).rejects.toThrow(
      /\{"query"/,
    );
  });

  it("answers GET with 405, an unknown session with 404, and another Host with 403", async () => {
    expect((await server.request("/mcp")).status).toBe(405);
    const unknown = await server.request("/mcp", {
      method: "POST",
      headers: { "mcp-session-id": "nope", accept: "application/json, text/event-stream" },
      json: { jsonrpc: "2.0", id: 1, method: "tools/list" },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ jsonrpc: "2.0", error: { code: -32000 }, id: null });
    const rebound = await sendWithHost({
      port: server.port,
      path: "/mcp",
      host: `evil.example:${server.port}`,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize" }),
    });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body)).toMatchObject({
      jsonrpc: "2.0",
      error: { message: expect.stringMatching(/DNS rebinding/) },
    });
  });
});

describe("/mcp with WADDLE_TOKEN", () => {
  const token = "mcp-test-token-0123456789";
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ token });
  });
  afterAll(() => server.stop());

  it("needs the token", async () => {
    await expect(connect(server)).rejects.toThrow();
    await expect(connect(server, "wrong-token-0123456789")).rejects.toThrow();
    const refused = await server.request("/mcp", {
      method: "POST",
      json: { jsonrpc: "2.0", id: 1, method: "ping" },
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toMatch(/^Bearer/);
    const client = await connect(server, token);
    const result = await client.callTool({
      name: "email-approval",
      arguments: { query: "Email Dana the report" },
    });
    expect((result.content as { text: string }[])[0]!.text).toMatch(/Authorization: Bearer <WADDLE_TOKEN>/);
    expect(result.structuredContent).toMatchObject({
      pause: { resume: { cli: expect.stringContaining("--token <WADDLE_TOKEN>") } },
    });
  });
});
