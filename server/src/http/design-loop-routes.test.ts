import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";

let api: Server;
let apiPort: number;
let server: TestServer;
const received: string[] = [];
beforeAll(async () => {
  let calls = 0;
  api = createServer((request, response) => {
    received.push(`${request.method} ${request.url} ${request.headers["x-key"] ?? ""}`);
    // every other call of /flaky fails (the first one of each pair)
    if (request.url?.startsWith("/flaky") && (calls += 1) % 2 === 1) {
      response.statusCode = 503;
      response.end("busy");
      return;
    }
    response.setHeader("content-type", "application/json");
    response.end(JSON.stringify({ temperature: 21, path: request.url }));
  });
  await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
  apiPort = (api.address() as AddressInfo).port;
  server = await startTestServer({ httpAllow: ["127.0.0.1"], secrets: { WEATHER: "s3cret-weather-key" } });
});
afterAll(async () => {
  await server.stop();
  await new Promise<void>((resolve) => api.close(() => resolve()));
});

const cityArgs = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };
const weatherSpec = (
  id: string,
  extra: Record<string, unknown> = {},
): { tools: Array<Record<string, unknown>> } & Record<string, unknown> => ({
  version: 1,
  id,
  name: id,
  tools: [
    {
      name: "weather",
      desc: "Weather of a city",
      sideEffects: "read",
      argsSchema: cityArgs,
      retry: { maxAttempts: 2, backoffMs: 0, maxBackoffMs: 0 },
      impl: {
        kind: "http",
        url: `http://127.0.0.1:${apiPort}/weather/{city}`,
        headers: { "x-key": { secret: "WEATHER" } },
      },
      ...extra,
    },
    {
      name: "summarize",
      desc: "Summarizes text",
      argsSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      outSchema: { type: "object", properties: { summary: { type: "string" } } },
      impl: { kind: "llm", prompt: "Summarize: {{args.text}}" },
    },
    {
      name: "charge",
      desc: "Charges a card",
      sideEffects: "write",
      impl: { kind: "mock", output: { charged: true } },
    },
  ],
});

describe("POST /api/tools/test", () => {
  beforeAll(async () => {
    expect(
      (await server.request("/api/agents", { method: "POST", json: weatherSpec("weather-agent") })).status,
    ).toBe(201);
  });

  it("calls an http tool through the real executor: allow-list, secret header, latency", async () => {
    const { status, body } = await server.request("/api/tools/test", {
      method: "POST",
      json: { agentId: "weather-agent", tool: "weather", args: { city: "Oslo" } },
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: true, result: { temperature: 21, path: "/weather/Oslo" }, attempts: 1 });
    expect(body.latencyMs).toBeGreaterThanOrEqual(0);
    expect(received).toContain("GET /weather/Oslo s3cret-weather-key");
  });

  it("retries under the tool's policy, for an unsaved spec too", async () => {
    const spec = weatherSpec("draft-only");
    spec.tools[0]!.impl = { kind: "http", url: `http://127.0.0.1:${apiPort}/flaky/{city}`, headers: {} };
    const { body } = await server.request("/api/tools/test", {
      method: "POST",
      json: { spec, tool: "weather", args: { city: "Rome" } },
    });
    expect(body).toMatchObject({ ok: true, attempts: 2 });
  });

  it("answers a refused host as the tool's failure, not as a bad request", async () => {
    const spec = weatherSpec("far-away");
    spec.tools[0]!.impl = { kind: "http", url: "https://api.example.com/w/{city}", headers: {} };
    const { status, body } = await server.request("/api/tools/test", {
      method: "POST",
      json: { spec, tool: "weather", args: { city: "Oslo" } },
    });
    expect(status).toBe(200);
    expect(body.ok).toBe(false);
    expect(body.error.message).toMatch(/api\.example\.com/);
  });

  it("shows an llm tool's rendered prompt", async () => {
    const { body } = await server.request("/api/tools/test", {
      method: "POST",
      json: { agentId: "weather-agent", tool: "summarize", args: { text: "a long day" } },
    });
    expect(body).toMatchObject({ ok: true, prompt: "Summarize: a long day" });
    expect(typeof body.result.summary).toBe("string");
  });

  it("asks for confirmation before a tool with side effects, then runs it", async () => {
    const refused = await server.request("/api/tools/test", {
      method: "POST",
      json: { agentId: "weather-agent", tool: "charge", args: {} },
    });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: "confirmation_required", details: { sideEffects: "write" } });
    const confirmed = await server.request("/api/tools/test", {
      method: "POST",
      json: { agentId: "weather-agent", tool: "charge", args: {}, confirm: true },
    });
    expect(confirmed.body).toMatchObject({ ok: true, result: { charged: true } });
  });

  it("refuses args that fail the schema with the issues, and sends nothing", async () => {
    const before = received.length;
    const { status, body } = await server.request("/api/tools/test", {
      method: "POST",
      json: { agentId: "weather-agent", tool: "weather", args: { city: 42 } },
    });
    expect(status).toBe(400);
    expect(body.code).toBe("validation_failed");
    expect(body.details.issues[0]).toMatchObject({ path: "city" });
    expect(received.length).toBe(before);
  });

  it.each([
    [{ tool: "weather", args: {} }, 400, "validation_failed"],
    [{ agentId: "weather-agent", tool: "weather", args: [] }, 400, "validation_failed"],
    [{ agentId: "Not A Slug", tool: "weather", args: {} }, 400, "validation_failed"],
    [{ agentId: "ghost", tool: "weather", args: {} }, 404, "not_found"],
    [{ agentId: "weather-agent", agentVersion: 9, tool: "weather", args: {} }, 404, "not_found"],
    [{ agentId: "weather-agent", tool: "nope", args: {} }, 404, "not_found"],
    [{ spec: { version: 1, id: "x" }, tool: "weather", args: {} }, 422, "invalid_spec"],
  ])("answers bad input %j with %i %s", async (json, status, code) => {
    const response = await server.request("/api/tools/test", { method: "POST", json });
    expect(response.status).toBe(status);
    expect(response.body.code).toBe(code);
  });
});

describe("validation with this server's settings", () => {
  const spec = {
    version: 1,
    id: "settings-probe",
    name: "Settings probe",
    llm: { provider: "openai", model: "gpt-4o-mini" },
    tools: [
      {
        name: "lookup",
        desc: "Looks up",
        argsSchema: cityArgs,
        impl: {
          kind: "http",
          url: "https://api.example.com/{city}",
          headers: { auth: { secret: "MISSING" } },
        },
      },
      { name: "files", desc: "Reads files", impl: { kind: "mcp", server: "fs", tool: "read" } },
      { name: "helper", desc: "Asks another agent", impl: { kind: "agent", agentId: "not-saved" } },
    ],
  };

  it("POST /api/agents/validate reports settings as warnings and a missing agent as an error", async () => {
    const { status, body } = await server.request("/api/agents/validate", { method: "POST", json: spec });
    expect(status).toBe(200);
    const codes = body.issues.map(
      (issue: { severity: string; code: string }) => `${issue.severity} ${issue.code}`,
    );
    expect(codes.sort()).toEqual([
      "error unknown_agent",
      "warning host_not_allowed",
      "warning mcp_server_not_configured",
      "warning missing_credential",
      "warning missing_secret",
    ]);
    expect(body.ok).toBe(false);
    const host = body.issues.find((issue: { code: string }) => issue.code === "host_not_allowed");
    expect(host).toMatchObject({
      path: "$.tools[0].impl.url",
      target: { kind: "tool", id: "lookup" },
      fix: { action: "allow_host", host: "api.example.com", list: "http" },
    });
  });

  it("sees a host and a secret stored from the Credentials page at once, with no restart", async () => {
    const stored = await server.request("/api/allowlist", {
      method: "PUT",
      json: { http: ["api.example.com"], llm: [] },
    });
    expect(stored.status).toBe(200);
    const secret = await server.request("/api/credentials/MISSING", {
      method: "PUT",
      json: { kind: "secret", value: "s3cret-value-0123456789" },
    });
    expect(secret.status).toBe(200);
    try {
      const { body } = await server.request("/api/agents/server-check", { method: "POST", json: spec });
      const codes = body.issues.map((issue: { code: string }) => issue.code);
      expect(codes).not.toContain("host_not_allowed");
      expect(codes).not.toContain("missing_secret");
      expect(codes).toContain("mcp_server_not_configured");
    } finally {
      await server.request("/api/credentials/MISSING", { method: "DELETE" });
      await server.request("/api/allowlist", { method: "PUT", json: { http: [], llm: [] } });
    }
  });

  it("POST /api/agents/server-check answers only what needs the server; a broken spec gets none", async () => {
    const { body } = await server.request("/api/agents/server-check", { method: "POST", json: spec });
    expect(body.issues).toHaveLength(5);
    const broken = await server.request("/api/agents/server-check", { method: "POST", json: { id: 3 } });
    expect(broken.body).toEqual({ ok: true, issues: [] });
    const none = await server.request("/api/agents/server-check", { method: "POST" });
    expect(none.status).toBe(400);
  });
});

describe("saving with errors, and drafts", () => {
  const broken = (id: string) => {
    const spec = weatherSpec(id);
    spec.tools[0]!.impl = { kind: "http", url: `http://127.0.0.1:${apiPort}/weather/{town}`, headers: {} };
    return spec;
  };

  it("refuses a spec with errors unless asked, then marks the version invalid and runs refuse it", async () => {
    expect((await server.request("/api/agents", { method: "POST", json: broken("broken") })).status).toBe(
      422,
    );
    const created = await server.request("/api/agents?allowInvalid=true", {
      method: "POST",
      json: broken("broken"),
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: "broken", version: 1, invalid: true });
    const run = await server.request("/api/runs", {
      method: "POST",
      json: { agentId: "broken", query: "hi" },
    });
    expect(run.status).toBe(422);
    expect(run.body.code).toBe("invalid_agent_version");
    expect(run.body.message).toMatch(/\{town\} names no argument/);
    expect(run.body.details.issues[0]).toMatchObject({ code: "unknown_template_arg" });
    const fixed = await server.request("/api/agents/broken", {
      method: "PUT",
      json: { spec: weatherSpec("broken"), baseVersion: 1 },
    });
    expect(fixed.body).toEqual({ id: "broken", version: 2 });
    const versions = await server.request("/api/agents/broken/versions");
    expect(versions.body.versions.map((version: { invalid?: boolean }) => version.invalid)).toEqual([
      true,
      undefined,
    ]);
    expect(
      (await server.request("/api/runs", { method: "POST", json: { agentId: "broken", query: "hi" } }))
        .status,
    ).toBe(202);
  });

  it("a structurally broken spec is refused even with allowInvalid", async () => {
    const response = await server.request("/api/agents?allowInvalid=true", {
      method: "POST",
      json: { ...weatherSpec("half"), tools: [{ name: 3 }] },
    });
    expect(response.status).toBe(422);
  });

  it("keeps a draft per agent: put, get, delete; unknown agents and bad bodies are refused", async () => {
    await server.request("/api/agents", { method: "POST", json: weatherSpec("drafted") });
    expect((await server.request("/api/agents/drafted/draft")).status).toBe(404);
    const edited = { ...weatherSpec("drafted"), name: "Drafted, unsaved", tools: [{ name: "half-typed" }] };
    const put = await server.request("/api/agents/drafted/draft", {
      method: "PUT",
      json: { baseVersion: 1, spec: edited },
    });
    expect(put.status).toBe(200);
    const got = await server.request("/api/agents/drafted/draft");
    expect(got.body).toMatchObject({ agentId: "drafted", baseVersion: 1, spec: edited });
    expect((await server.request("/api/agents/drafted/draft", { method: "DELETE" })).status).toBe(204);
    expect((await server.request("/api/agents/drafted/draft")).status).toBe(404);
    expect(
      (await server.request("/api/agents/ghost/draft", { method: "PUT", json: { baseVersion: 1, spec: {} } }))
        .status,
    ).toBe(404);
    const bad = await server.request("/api/agents/drafted/draft", { method: "PUT", json: { spec: "text" } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("validation_failed");
    expect((await server.request("/api/agents/Not%20a%20slug/draft")).status).toBe(400);
  });

  it("drops the draft of a deleted agent", async () => {
    await server.request("/api/agents", { method: "POST", json: weatherSpec("short-lived") });
    await server.request("/api/agents/short-lived/draft", {
      method: "PUT",
      json: { baseVersion: 1, spec: weatherSpec("short-lived") },
    });
    expect((await server.request("/api/agents/short-lived", { method: "DELETE" })).status).toBe(204);
    expect(await server.store.drafts.get("short-lived")).toBeUndefined();
    expect((await server.request("/api/agents/short-lived/draft")).status).toBe(404);
  });
});
