import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";
import { isLoopbackHost } from "./host-guard.js";

const noRuns = async () => {
  throw new Error("this suite starts no runs");
};

interface RawAnswer {
  status: number;
  body: string;
}

/** A request with a Host header of our choosing (fetch does not let a caller set Host). */
function send(
  server: TestServer,
  options: { path: string; host: string; method?: string; headers?: Record<string, string>; body?: string },
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: "127.0.0.1",
        port: server.port,
        path: options.path,
        method: options.method ?? "GET",
        headers: { ...options.headers, host: options.host },
      },
      (response) => {
        let body = "";
        response.on("data", (chunk: Buffer) => (body += chunk.toString()));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    request.on("upgrade", (response, socket) => {
      socket.destroy();
      resolve({ status: response.statusCode ?? 101, body: "" });
    });
    request.on("error", reject);
    request.end(options.body);
  });
}

const upgradeHeaders = {
  connection: "Upgrade",
  upgrade: "websocket",
  "sec-websocket-version": "13",
  "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
};

describe("Host check without a token (DNS rebinding)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ createPlanner: noRuns });
  });
  afterAll(() => server.stop());

  it("answers 127.0.0.1, localhost and [::1] on its own port", async () => {
    for (const name of ["127.0.0.1", "localhost", "LOCALHOST", "[::1]"]) {
      const answer = await send(server, { path: "/api/agents", host: `${name}:${server.port}` });
      expect(answer.status, name).toBe(200);
    }
  });

  it("refuses any other Host with 403 forbidden, for reads, writes and the designer alike", async () => {
    const rebound = `attacker.example:${server.port}`;
    const cases = [
      { path: "/api/agents", host: rebound },
      {
        path: "/api/runs",
        host: rebound,
        method: "POST",
        headers: { origin: `http://${rebound}`, "content-type": "application/json" },
        body: JSON.stringify({ agentId: "support-triage", query: "leak" }),
      },
      { path: "/", host: rebound },
      { path: "/api/agents", host: `127.0.0.1:${server.port + 1}` },
      { path: "/api/agents", host: "127.0.0.1" },
      { path: "/api/agents", host: `127.0.0.1.attacker.example:${server.port}` },
    ];
    for (const item of cases) {
      const answer = await send(server, item);
      expect(answer.status, item.host).toBe(403);
      expect(JSON.parse(answer.body)).toMatchObject({
        code: "forbidden",
        message: expect.stringContaining("WADDLE_TOKEN"),
      });
    }
    expect(await server.store.listRuns()).toEqual([]);
  });

  it("refuses socket.io handshakes, polling and WebSocket, for another Host", async () => {
    const handshake = "/socket.io/?EIO=4&transport=polling";
    const good = await send(server, { path: handshake, host: `localhost:${server.port}` });
    expect(good.status).toBe(200);
    const polling = await send(server, { path: handshake, host: `attacker.example:${server.port}` });
    expect(polling.status).toBe(403);
    expect(JSON.parse(polling.body)).toMatchObject({
      code: "forbidden",
      message: expect.stringMatching(/^Host "attacker\.example:\d+" is not this server's address/),
    });
    const websocket = "/socket.io/?EIO=4&transport=websocket";
    const upgraded = await send(server, {
      path: websocket,
      host: `127.0.0.1:${server.port}`,
      headers: upgradeHeaders,
    });
    expect(upgraded.status).toBe(101);
    const refused = await send(server, {
      path: websocket,
      host: `attacker.example:${server.port}`,
      headers: upgradeHeaders,
    });
    expect(refused).toMatchObject({ status: 403, body: expect.stringContaining('"code":"forbidden"') });
  });
});

describe("Host check with a token", () => {
  const token = "host-test-token-0123456789";
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ createPlanner: noRuns, token });
  });
  afterAll(() => server.stop());

  it("leaves the guarding to the token: any name with the token passes, none without", async () => {
    const host = `waddle.internal.example:${server.port}`;
    const withToken = await send(server, {
      path: "/api/agents",
      host,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(withToken.status).toBe(200);
    expect((await send(server, { path: "/api/agents", host })).status).toBe(401);
  });
});

describe("isLoopbackHost", () => {
  it.each([
    ["127.0.0.1:8787", 8787, true],
    ["localhost:8787", 8787, true],
    ["[::1]:8787", 8787, true],
    ["localhost", 80, true],
    ["localhost", 8787, false],
    ["127.0.0.2:8787", 8787, false],
    ["localhost.:8787", 8787, false],
    ["[::ffff:127.0.0.1]:8787", 8787, false],
    [undefined, 8787, false],
  ] as const)("%s on port %i: %s", (host, port, expected) => {
    expect(isLoopbackHost(host, port)).toBe(expected);
  });
});
