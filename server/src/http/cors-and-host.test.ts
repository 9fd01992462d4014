import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, readServerConfig } from "../config.js";
import { createWaddleServer } from "../server.js";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";

const noRuns = async () => {
  throw new Error("this suite starts no runs");
};

describe("CORS", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ createPlanner: noRuns, corsOrigin: "https://app.example.com" });
  });
  afterAll(() => server.stop());

  it("allows the configured origin only", async () => {
    const preflight = await server.request("/api/agents", {
      method: "OPTIONS",
      headers: { origin: "https://app.example.com", "access-control-request-method": "POST" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("https://app.example.com");
    const other = await server.request("/api/agents", { headers: { origin: "https://evil.example.com" } });
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("lets a browser's openai-node and MCP SDK send their headers and read the run id, nothing else", async () => {
    const preflight = await server.request("/v1/chat/completions", {
      method: "OPTIONS",
      headers: {
        origin: "https://app.example.com",
        "access-control-request-method": "POST",
        "access-control-request-headers":
          "authorization,content-type,x-stainless-os,x-stainless-retry-count,idempotency-key,mcp-session-id,mcp-protocol-version,last-event-id,x-evil-header",
      },
    });
    const allowed = preflight.headers.get("access-control-allow-headers")?.split(", ") ?? [];
    expect(allowed).toEqual(
      expect.arrayContaining([
        "x-stainless-os",
        "x-stainless-retry-count",
        "idempotency-key",
        "mcp-session-id",
        "mcp-protocol-version",
        "last-event-id",
      ]),
    );
    expect(allowed).not.toContain("x-evil-header");
    const models = await server.request("/v1/models", { headers: { origin: "https://app.example.com" } });
    expect(models.headers.get("access-control-expose-headers")).toContain("x-waddle-run-id");
    expect(models.headers.get("access-control-expose-headers")).toContain("mcp-session-id");
  });
});

describe("OAuth discovery", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ createPlanner: noRuns });
  });
  afterAll(() => server.stop());

  it("answers /.well-known/oauth-* with a JSON 404, not the designer's page", async () => {
    for (const path of [
      "/.well-known/oauth-authorization-server",
      "/.well-known/oauth-protected-resource/mcp",
    ]) {
      const response = await server.request(path);
      expect(response.status, path).toBe(404);
      expect(response.headers.get("content-type")).toMatch(/application\/json/);
      expect(response.body).toMatchObject({ code: "not_found", message: expect.stringContaining("OAuth") });
    }
  });
});

describe("binding without a token", () => {
  it("refuses a non-loopback host", async () => {
    await expect(
      createWaddleServer({ host: "0.0.0.0", logLevel: "silent", createPlanner: noRuns }),
    ).rejects.toThrow(/WADDLE_TOKEN/);
    expect(() => readServerConfig({ HOST: "0.0.0.0" })).toThrow(ConfigError);
  });

  it("reads the environment", () => {
    const config = readServerConfig(
      {
        PORT: "0",
        HOST: "0.0.0.0",
        WADDLE_TOKEN: "a-long-enough-token-123",
        WADDLE_HTTP_ALLOW: "api.example.com, *.example.org",
        WADDLE_SECRET_WEATHER: "s3cret-value",
        WADDLE_MAX_CONCURRENT_RUNS: "2",
        WADDLE_DATA_DIR: "/tmp/waddle-x",
      },
      "/repo",
    );
    expect(config).toMatchObject({
      port: 0,
      host: "0.0.0.0",
      httpAllow: ["api.example.com", "*.example.org"],
      secrets: { WEATHER: "s3cret-value" },
      maxConcurrentRuns: 2,
      dataDir: "/tmp/waddle-x",
    });
    expect(readServerConfig({}, "/repo")).toMatchObject({
      port: 8787,
      host: "127.0.0.1",
      dataDir: "/repo/data",
    });
    expect(() => readServerConfig({ PORT: "http" })).toThrow(/PORT/);
    expect(() => readServerConfig({ WADDLE_TOKEN: "short" })).toThrow(/too short/);
    expect(() => readServerConfig({ WADDLE_CORS_ORIGIN: "*" })).toThrow(/WADDLE_CORS_ORIGIN/);
  });
});
