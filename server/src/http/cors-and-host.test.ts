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
