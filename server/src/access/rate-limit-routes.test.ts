import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";

const MCP_HEADERS = { accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" };

describe("rate limits on the routes that start work (WADDLE_RATE_LIMIT=2/h)", () => {
  let server: TestServer;
  let mcpSession: string;
  beforeAll(async () => {
    server = await startTestServer({ rateLimit: "2/h" });
    // A session's turn and an MCP session, opened before the buckets run dry (neither takes a token).
    const init = await server.request("/mcp", {
      method: "POST",
      headers: MCP_HEADERS,
      json: {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      },
    });
    mcpSession = init.headers.get("mcp-session-id")!;
  });
  afterAll(() => server?.stop());

  const expectRetryAfter = (headers: Headers) => {
    const seconds = Number(headers.get("retry-after"));
    expect(seconds).toBeGreaterThan(3000);
    expect(seconds).toBeLessThanOrEqual(3600);
  };

  it("POST /api/runs: 202 within the limit, then 429 rate_limited with Retry-After", async () => {
    const start = () =>
      server.request("/api/runs", { method: "POST", json: { agentId: "support-triage", query: "hello" } });
    expect((await start()).status).toBe(202);
    expect((await start()).status).toBe(202);
    const refused = await start();
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: "rate_limited", details: { limit: "2/h" } });
    expect(refused.body.message).toMatch(/Too many requests/);
    expectRetryAfter(refused.headers);
    // Reading is not limited.
    expect((await server.request("/api/runs")).status).toBe(200);
  });

  it("a session's turn: POST /api/sessions/:id/turns and its alias POST /api/runs {sessionId}", async () => {
    const { sessionId } = (
      await server.request("/api/sessions", { method: "POST", json: { agentId: "support-triage" } })
    ).body as { sessionId: string };
    for (const [path, json] of [
      [`/api/sessions/${sessionId}/turns`, { query: "hi" }],
      ["/api/runs", { sessionId, query: "hi" }],
    ] as const) {
      const turn = await server.request(path, { method: "POST", json });
      expect(turn.status, path).toBe(429);
      expect(turn.body.code).toBe("rate_limited");
      expectRetryAfter(turn.headers);
    }
    expect((await server.store.sessions.get(sessionId))?.turns).toEqual([]);
  });

  it("/v1/chat/completions and /v1/responses: 429 in OpenAI's error shape", async () => {
    for (const [path, json] of [
      ["/v1/chat/completions", { model: "support-triage", messages: [{ role: "user", content: "hi" }] }],
      ["/v1/responses", { model: "support-triage", input: "hi" }],
    ] as const) {
      const refused = await server.request(path, { method: "POST", json });
      expect(refused.status, path).toBe(429);
      expect(refused.body.error).toMatchObject({ type: "rate_limit_error", code: "rate_limited" });
      expect(refused.body.error.message).toMatch(/Too many requests/);
      expectRetryAfter(refused.headers);
    }
    // Listing models starts nothing.
    expect((await server.request("/v1/models")).status).toBe(200);
  });

  it("/mcp tools/call: 429 as a JSON-RPC error", async () => {
    const refused = await server.request("/mcp", {
      method: "POST",
      headers: { ...MCP_HEADERS, "mcp-session-id": mcpSession },
      json: {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "support-triage", arguments: { query: "hi" } },
      },
    });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({
      jsonrpc: "2.0",
      error: { code: -32000, data: { code: "rate_limited" } },
    });
    expectRetryAfter(refused.headers);
    // tools/list starts nothing.
    const listed = await server.request("/mcp", {
      method: "POST",
      headers: { ...MCP_HEADERS, "mcp-session-id": mcpSession },
      json: { jsonrpc: "2.0", id: 3, method: "tools/list" },
    });
    expect(listed.status).toBe(200);
  });
});

describe("sign-in attempts per address (a server with WADDLE_TOKEN)", () => {
  const TOKEN = "signin-limit-token-0123456789";
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ token: TOKEN });
  });
  afterAll(() => server?.stop());

  it("answers 429 with Retry-After after 10 failed sign-ins, even to the right key, and audits them once", async () => {
    const withKey = (key: string) =>
      server.request("/api/agents", { headers: { authorization: `Bearer ${key}` } });
    expect((await withKey(TOKEN)).status).toBe(200);
    for (let attempt = 0; attempt < 10; attempt += 1) {
      expect((await withKey(`wrong-${attempt}`)).status).toBe(401);
    }
    // The guard learns of the last failure when its response has finished: ask until it has.
    await expect.poll(async () => (await withKey(TOKEN)).status).toBe(429);
    const refused = await withKey(TOKEN);
    expect(refused.body).toMatchObject({ code: "rate_limited", details: { scope: "sign-in" } });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(
      (await server.request("/v1/models", { headers: { authorization: `Bearer ${TOKEN}` } })).status,
    ).toBe(429);
    // One entry for the minute, with a count; none holds a presented key.
    const entries = await server.store.audit.list({ limit: 100, action: "auth.failed" });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actor: "anonymous",
      actorKeyId: null,
      target: { type: "address" },
      details: { count: 1 },
    });
    expect(entries[0]!.ip).toMatch(/127\.0\.0\.1/);
    expect(JSON.stringify(entries)).not.toContain("wrong-");
  });
});

describe("an agent's bucket whatever channel or version the caller names (issue 32)", () => {
  const TOKEN = "bootstrap-token-for-the-agent-bucket";
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ rateLimit: "1/h", token: TOKEN });
  });
  afterAll(() => server?.stop());

  it("counts support-triage@1 on /v1 against support-triage", async () => {
    const keys: string[] = [];
    for (const name of ["first", "second"]) {
      const created = await server.request("/api/keys", {
        method: "POST",
        headers: { authorization: `Bearer ${TOKEN}` },
        json: { name, role: "runner", rateLimit: "10/h" },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      keys.push((created.body as { key: string }).key);
    }
    const complete = (key: string, model: string) =>
      server.request("/v1/chat/completions", {
        method: "POST",
        headers: { authorization: `Bearer ${key}` },
        json: { model, messages: [{ role: "user", content: "hello" }] },
      });
    expect((await complete(keys[0]!, "support-triage")).status).toBe(200);
    const refused = await complete(keys[1]!, "support-triage@1");
    expect(refused.status).toBe(429);
    expect(JSON.stringify(refused.body)).toContain('the agent \\"support-triage\\"');
  });
});
