import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { AgentSpec } from "@waddle/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";

const TOKEN = "mcp-access-token-0123456789";
let server: TestServer;
const spec = (id: string) =>
  AgentSpec.parse({
    version: 1,
    id,
    name: `Agent ${id}`,
    tools: [{ name: "lookup", desc: "Looks a record up.", impl: { kind: "mock", output: { found: true } } }],
  });

async function createKey(body: Record<string, unknown>): Promise<string> {
  const created = await server.request("/api/keys", {
    method: "POST",
    headers: { authorization: `Bearer ${TOKEN}` },
    json: body,
  });
  return created.body.key as string;
}

async function connect(key: string): Promise<{ client: Client; sessionId: string }> {
  const client = new Client({ name: "waddle-access-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  return { client, sessionId: transport.sessionId! };
}

beforeAll(async () => {
  server = await startTestServer({ token: TOKEN, exampleAgentsDir: null });
  await server.store.createAgent({ spec: spec("alpha") });
  await server.store.createAgent({ spec: spec("beta") });
});
afterAll(() => server.stop());

describe("/mcp with keys", () => {
  it("lists only a scoped key's agents, and another key cannot use its session", async () => {
    const scoped = await createKey({ name: "alpha runner", role: "runner", agents: ["alpha"] });
    const other = await createKey({ name: "other runner", role: "runner" });
    const { client, sessionId } = await connect(scoped);
    try {
      const tools = await client.listTools();
      expect(tools.tools.map((tool) => tool.name)).toEqual(["alpha"]);
      // Out of scope is the same as no such agent.
      await expect(client.callTool({ name: "beta", arguments: { query: "hi" } })).rejects.toThrow(
        /No agent "beta"/,
      );
      const borrowed = await fetch(`${server.url}/mcp`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${other}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-session-id": sessionId,
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list" }),
      });
      expect(borrowed.status).toBe(404);
    } finally {
      await client.close();
    }
  });

  it("refuses a viewer with a JSON-RPC error that says forbidden and names the permission", async () => {
    const viewer = await createKey({ name: "viewer", role: "viewer" });
    const response = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${viewer}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} }),
    });
    expect(response.status).toBe(403);
    const body = (await response.json()) as { jsonrpc: string; error: { message: string; data: unknown } };
    expect(body.jsonrpc).toBe("2.0");
    expect(body.error.data).toEqual({ code: "forbidden", details: { permission: "runs:start" } });
  });
});
