import { AgentSpec } from "@waddle/protocol";
import { io as connect } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";

const TOKEN = "test-token-0123456789abcdef";
let server: TestServer;
const noRuns = async () => {
  throw new Error("this suite starts no runs");
};
beforeAll(async () => {
  server = await startTestServer({ createPlanner: noRuns, token: TOKEN, bodyLimit: "64kb" });
});
afterAll(() => server.stop());

const auth = { authorization: `Bearer ${TOKEN}` };
const spec = (id: string) =>
  AgentSpec.parse({ version: 1, id, name: "Hostile test", tools: [{ name: "a", impl: { kind: "mock" } }] });
const raw = (body: string, contentType = "application/json") => ({
  method: "POST",
  headers: { ...auth, "content-type": contentType },
  body,
});

interface HostileCase {
  name: string;
  path: string;
  init?: Parameters<TestServer["request"]>[1];
  status: number;
  code: string;
}

const cases: HostileCase[] = [
  { name: "invalid JSON", path: "/api/agents", init: raw("{ not json"), status: 400, code: "invalid_json" },
  {
    name: "oversize body",
    path: "/api/agents",
    init: raw(JSON.stringify({ pad: "x".repeat(100_000) })),
    status: 413,
    code: "payload_too_large",
  },
  {
    name: "wrong content type",
    path: "/api/agents",
    init: raw("version=1", "application/x-www-form-urlencoded"),
    status: 415,
    code: "unsupported_media_type",
  },
  {
    name: "plain text body",
    path: "/api/agents/validate",
    init: raw("hello", "text/plain"),
    status: 415,
    code: "unsupported_media_type",
  },
  {
    name: "wrong types in a spec",
    path: "/api/agents",
    init: { method: "POST", headers: auth, json: { version: 1, id: "x", name: 42 } },
    status: 422,
    code: "invalid_spec",
  },
  {
    name: "a spec that is a string",
    path: "/api/agents",
    init: { method: "POST", headers: auth, json: "agent" },
    status: 422,
    code: "invalid_spec",
  },
  {
    name: "wrong types in a run",
    path: "/api/runs",
    init: { method: "POST", headers: auth, json: { agentId: 7, query: [] } },
    status: 400,
    code: "validation_failed",
  },
  {
    name: "unknown fields in a run",
    path: "/api/runs",
    init: { method: "POST", headers: auth, json: { agentId: "a", query: "q", admin: true } },
    status: 400,
    code: "validation_failed",
  },
  {
    name: "empty update",
    path: "/api/agents/support-triage",
    init: { method: "PUT", headers: auth, json: {} },
    status: 400,
    code: "validation_failed",
  },
  {
    name: "negative version",
    path: "/api/agents/support-triage/versions/-1",
    init: { headers: auth },
    status: 400,
    code: "validation_failed",
  },
  {
    name: "unknown agent",
    path: "/api/agents/no-such-agent",
    init: { headers: auth },
    status: 404,
    code: "not_found",
  },
  {
    name: "unknown run",
    path: "/api/runs/run_0000000000000000",
    init: { headers: auth },
    status: 404,
    code: "not_found",
  },
  {
    name: "traversal-like agent id",
    path: "/api/agents/..%2F..%2Fetc%2Fpasswd",
    init: { headers: auth },
    status: 400,
    code: "validation_failed",
  },
  {
    name: "dot-file agent id",
    path: "/api/agents/.env",
    init: { headers: auth },
    status: 400,
    code: "validation_failed",
  },
  {
    name: "traversal-like run id",
    path: "/api/runs/..%2Fdata%2Fwaddle.db/events",
    init: { headers: auth },
    status: 400,
    code: "validation_failed",
  },
  {
    name: "upper-case agent id",
    path: "/api/agents/Support-Triage",
    init: { headers: auth },
    status: 400,
    code: "validation_failed",
  },
  {
    name: "SQL-ish agent id",
    path: "/api/agents/x'%20OR%201%3D1--",
    init: { headers: auth },
    status: 400,
    code: "validation_failed",
  },
  {
    name: "over-long agent id",
    path: `/api/agents/${"a".repeat(300)}`,
    init: { headers: auth },
    status: 400,
    code: "validation_failed",
  },
  {
    name: "negative after",
    path: "/api/runs/run_0000000000000000/events?after=-1",
    init: { headers: auth },
    status: 400,
    code: "validation_failed",
  },
  {
    name: "array query",
    path: "/api/runs?agentId=a&agentId=b",
    init: { headers: auth },
    status: 400,
    code: "validation_failed",
  },
  {
    name: "stale version",
    path: "/api/agents/support-triage",
    init: { method: "PUT", headers: auth, json: { spec: { ...spec("support-triage") }, baseVersion: 99 } },
    status: 409,
    code: "conflict",
  },
  {
    name: "resume of a run that is not paused",
    path: "/api/runs/run_0000000000000000/resume",
    init: { method: "POST", headers: auth, json: { resumeToken: "t", decision: "approve" } },
    status: 404,
    code: "not_found",
  },
  {
    name: "bad decision",
    path: "/api/runs/run_0000000000000000/resume",
    init: { method: "POST", headers: auth, json: { resumeToken: "t", decision: "maybe" } },
    status: 400,
    code: "validation_failed",
  },
  { name: "no token", path: "/api/agents", status: 401, code: "unauthorized" },
  {
    name: "cross-site cancel",
    path: "/api/runs/run_0000000000000000/cancel",
    init: { method: "POST", headers: { ...auth, origin: "https://evil.example" } },
    status: 403,
    code: "forbidden",
  },
  {
    name: "bad token",
    path: "/api/agents",
    init: { headers: { authorization: "Bearer wrong-token-wrong-token" } },
    status: 401,
    code: "unauthorized",
  },
  {
    name: "token without Bearer",
    path: "/api/agents",
    init: { headers: { authorization: TOKEN } },
    status: 401,
    code: "unauthorized",
  },
];

describe("hostile inputs", () => {
  it.each(cases)("$name → $status $code", async ({ path, init, status, code }) => {
    const response = await server.request(path, init);
    expect(response.status, response.text).toBe(status);
    expect(response.body).toMatchObject({ code, message: expect.any(String) });
    expect(response.text).not.toMatch(/at .*\.ts:\d+|node_modules/);
  });

  it('asks for the spec when a create has no body, instead of naming a field "undefined"', async () => {
    const response = await server.request("/api/agents", { method: "POST", headers: auth });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      code: "validation_failed",
      message: expect.stringMatching(/spec/),
    });
    expect(response.text).not.toContain("undefined");
  });

  it("drops __proto__ and constructor.prototype keys without polluting anything", async () => {
    const body = `{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}},
      "version": 1, "id": "proto-agent", "name": "Proto", "tools": [],
      "layout": {"nodes": {"__proto__": {"x": 1, "y": 2}}}}`;
    const created = await server.request("/api/agents", raw(body));
    expect(created.status).toBe(201);
    const saved = await server.request("/api/agents/proto-agent", { headers: auth });
    expect(Object.keys(saved.body.spec.layout.nodes)).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const validated = await server.request("/api/agents/validate", raw('{"__proto__": {"ok": true}}'));
    expect(validated.body.ok).toBe(false);
    expect(({} as Record<string, unknown>).ok).toBeUndefined();
  });

  it("stays up and healthy after all of them", async () => {
    const anonymous = (await server.request("/api/health")).body as { cliPath?: string };
    expect(anonymous).toMatchObject({ ok: true, authRequired: true });
    // The CLI's path on this machine only to a caller with the token.
    expect(anonymous.cliPath).toBeUndefined();
    const signedIn = (await server.request("/api/health", { headers: auth })).body as { cliPath?: string };
    expect(signedIn.cliPath).toMatch(/\/apps\/cli\/bin\/waddle\.mjs$/);
    expect((await server.request("/api/agents", { headers: auth })).status).toBe(200);
  });
});

describe("socket handshake with a token", () => {
  const tryConnect = (token?: string) =>
    new Promise<string>((resolve) => {
      const socket = connect(server.url, {
        transports: ["websocket"],
        reconnection: false,
        ...(token ? { auth: { token } } : {}),
      });
      socket.on("connect", () => {
        socket.disconnect();
        resolve("connected");
      });
      socket.on("connect_error", (error) => {
        socket.disconnect();
        resolve(error.message);
      });
    });

  it("refuses a missing or wrong token and accepts the right one", async () => {
    expect(await tryConnect()).toMatch(/unauthorized/);
    expect(await tryConnect("wrong-token-wrong-token")).toMatch(/unauthorized/);
    expect(await tryConnect(TOKEN)).toBe("connected");
  });

  it("refuses a WebSocket handshake from another site's page", async () => {
    const message = await new Promise<string>((resolve) => {
      const socket = connect(server.url, {
        transports: ["websocket"],
        reconnection: false,
        auth: { token: TOKEN },
        extraHeaders: { origin: "https://evil.example" },
      });
      socket.on("connect", () => (socket.disconnect(), resolve("connected")));
      socket.on("connect_error", (error) => (socket.disconnect(), resolve(error.message)));
    });
    expect(message).not.toBe("connected");
  });

  it("answers a malformed subscribe with an error ack", async () => {
    const socket = connect(server.url, {
      transports: ["websocket"],
      reconnection: false,
      auth: { token: TOKEN },
    });
    const ack = await new Promise((resolve) =>
      socket.emit("subscribe", { runId: "../x", afterSeq: -5 } as never, resolve),
    );
    const unknown = await new Promise((resolve) =>
      socket.emit("subscribe", { runId: "run_nope", afterSeq: 0 }, resolve),
    );
    socket.disconnect();
    expect(ack).toMatchObject({ ok: false, error: { code: "validation_failed" } });
    expect(unknown).toMatchObject({ ok: false, error: { code: "not_found" } });
  });
});
