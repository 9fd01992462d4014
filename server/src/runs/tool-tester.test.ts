import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";

const TOKEN = "live-settings-token-0123456789";

/** A local API that wants a token header and says what it got. */
let api: Server;
let apiPort: number;
let server: TestServer;
const seen: (string | undefined)[] = [];

beforeAll(async () => {
  api = createServer((request, response) => {
    seen.push(request.headers["x-token"] as string | undefined);
    request.resume();
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify({ pong: true, path: request.url }));
  });
  await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
  apiPort = (api.address() as AddressInfo).port;
  // Nothing allowed and no secret at start: both come from the credentials API, without a restart.
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
  await new Promise<void>((resolve) => api.close(() => resolve()));
});

const pingAgent = (id: string) => ({
  version: 1,
  id,
  name: id,
  tools: [
    {
      name: "ping",
      desc: "Pings the local API",
      sideEffects: "read",
      impl: {
        kind: "http",
        method: "GET",
        url: `http://127.0.0.1:${apiPort}/ping`,
        headers: { "x-token": { secret: "PING_TOKEN" } },
      },
    },
  ],
});

const runTool = (agentId: string) =>
  server.request("/api/tools/test", { method: "POST", json: { agentId, tool: "ping", args: {} } });

const serverCheckCodes = async (spec: unknown): Promise<string[]> => {
  const { body } = await server.request("/api/agents/server-check", { method: "POST", json: spec });
  return (body.issues as { code: string }[]).map((issue) => issue.code);
};

describe("Run tool and the server check read the settings a run would start with", () => {
  it("a host and a secret added through the credentials API count at once, no restart", async () => {
    const spec = pingAgent("ping-live");
    expect((await server.request("/api/agents", { method: "POST", json: spec })).status).toBe(201);

    const before = await runTool("ping-live");
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ ok: false, error: { code: "missing_secret" } });
    expect(await serverCheckCodes(spec)).toEqual(["host_not_allowed", "missing_secret"]);

    const stored = await server.request("/api/credentials/PING_TOKEN", {
      method: "PUT",
      json: { kind: "secret", value: TOKEN },
    });
    expect(stored.status).toBe(200);
    const secretOnly = await runTool("ping-live");
    expect(secretOnly.body).toMatchObject({ ok: false, error: { code: "host_not_allowed" } });
    // The refusal names where to add the host now, not a restart.
    expect(secretOnly.body.error.message).toContain("Credentials page");
    expect(secretOnly.body.error.message).not.toContain("restart");
    expect(await serverCheckCodes(spec)).toEqual(["host_not_allowed"]);

    const allowed = await server.request("/api/allowlist", {
      method: "PUT",
      json: { http: [`127.0.0.1:${apiPort}`], llm: [] },
    });
    expect(allowed.status).toBe(200);

    const after = await runTool("ping-live");
    expect(after.body).toMatchObject({ ok: true, result: { pong: true, path: "/ping" } });
    expect(seen).toEqual([TOKEN]);
    expect(await serverCheckCodes(spec)).toEqual([]);

    // Taken away again, the next call is refused again: nothing was kept from the call before.
    await server.request("/api/allowlist", { method: "PUT", json: { http: [], llm: [] } });
    expect((await runTool("ping-live")).body).toMatchObject({
      ok: false,
      error: { code: "host_not_allowed" },
    });
    expect(await serverCheckCodes(spec)).toEqual(["host_not_allowed"]);
  });
});
