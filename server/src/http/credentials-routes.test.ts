import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fixtureReply, startOpenAiFixtureServer, type OpenAiFixtureServer } from "@waddle/planner/testing";
import { AgentSpec } from "@waddle/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";
import { waitForRun } from "../testing/wait-for-run.js";

const TOKEN = "weather-token-0123456789-secret";
const LLM_KEY = "sk-fixture-key-0123456789abcdef";
const ENV_SECRET = "env-secret-value-0123456789";

/** A weather API on 127.0.0.1 that wants the token and echoes it back (so redaction has work to do). */
let api: Server;
let apiPort: number;
const seen: (string | undefined)[] = [];
let fixture: OpenAiFixtureServer;
let server: TestServer;

beforeAll(async () => {
  api = createServer((request, response) => {
    seen.push(request.headers["x-token"] as string | undefined);
    request.resume();
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify({ forecast: "sunny", echoed: request.headers["x-token"] ?? null }));
  });
  await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
  apiPort = (api.address() as AddressInfo).port;
  fixture = await startOpenAiFixtureServer({ apiKey: LLM_KEY, models: ["fixture-model"] });
  server = await startTestServer({
    secrets: { FROM_ENV: ENV_SECRET },
    env: { WADDLE_SECRET_FROM_ENV: ENV_SECRET },
  });
});
afterAll(async () => {
  await server?.stop();
  await fixture?.close();
  await new Promise<void>((resolve) => api.close(() => resolve()));
});

const weatherAgent = (id: string, llm: Record<string, unknown> = { provider: "offline", model: "offline" }) =>
  AgentSpec.parse({
    version: 1,
    id,
    name: id,
    llm,
    tools: [
      {
        name: "weather",
        desc: "Today's weather",
        impl: {
          kind: "http",
          method: "GET",
          url: `http://127.0.0.1:${apiPort}/today`,
          headers: { "x-token": { secret: "WEATHER_TOKEN" } },
        },
      },
    ],
  });

async function runAgent(agentId: string, extra: Record<string, unknown> = {}) {
  const started = await server.request("/api/runs", {
    method: "POST",
    json: { agentId, query: "Weather?", ...extra },
  });
  expect(started.status, started.text).toBe(202);
  const run = await waitForRun(server, started.body.runId as string);
  const events = await server.request(`/api/runs/${run.id}/events`);
  return { run, eventsText: events.text };
}

describe("credentials routes: bad input", () => {
  it("refuses a name outside [A-Z0-9_]{1,64} and a value over 16 KB with 400", async () => {
    for (const name of ["lower", "A-B", "X".repeat(65), "%20"]) {
      const answer = await server.request(`/api/credentials/${name}`, {
        method: "PUT",
        json: { kind: "secret", value: "some-value-123" },
      });
      expect(answer.status, name).toBe(400);
      expect(answer.body.code).toBe("validation_failed");
    }
    const big = await server.request("/api/credentials/BIG", {
      method: "PUT",
      json: { kind: "secret", value: "x".repeat(16 * 1024 + 1) },
    });
    expect(big.status).toBe(400);
    expect(big.body.message).toMatch(/16 KB/);
    const exact = await server.request("/api/credentials/EXACT", {
      method: "PUT",
      json: { kind: "secret", value: "x".repeat(16 * 1024) },
    });
    expect(exact.status).toBe(200);
    const kind = await server.request("/api/credentials/K", {
      method: "PUT",
      json: { kind: "token", value: "v" },
    });
    expect(kind.status).toBe(400);
    const secretWithUrl = await server.request("/api/credentials/S", {
      method: "PUT",
      json: { kind: "secret", value: "some-value-123", baseUrl: "http://127.0.0.1:1/v1" },
    });
    expect(secretWithUrl.status).toBe(400);
    expect((await server.request("/api/credentials/NOPE", { method: "DELETE" })).status).toBe(404);
  });

  it("refuses an allow-list entry that is not a host, host:port or address with 400 saying why", async () => {
    const answer = await server.request("/api/allowlist", {
      method: "PUT",
      json: { http: ["ok.example.com", "https://api.example.com/v1"], llm: [] },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toMatch(
      /"https:\/\/api.example.com\/v1" \(http\[1\]\) cannot be added: give the host without a scheme/,
    );
    expect(answer.body.details).toMatchObject({ reason: "invalid_allow_entry", list: "http", index: 1 });
    const missing = await server.request("/api/allowlist", { method: "PUT", json: { http: [] } });
    expect(missing.status).toBe(400);
    // Nothing of the refused request was kept.
    expect((await server.request("/api/allowlist")).body.http).toEqual([]);
  });

  it("refuses to store a name the environment holds, and lists it read-only", async () => {
    const answer = await server.request("/api/credentials/FROM_ENV", {
      method: "PUT",
      json: { kind: "secret", value: "another-value-123" },
    });
    expect(answer.status).toBe(409);
    expect(answer.body.message).toMatch(/WADDLE_SECRET_FROM_ENV/);
    const list = await server.request("/api/credentials");
    expect(list.body.credentials).toContainEqual({
      name: "FROM_ENV",
      kind: "secret",
      last4: "6789",
      updatedAt: null,
      source: "environment",
    });
    expect(list.text).not.toContain(ENV_SECRET);
  });
});

describe("credentials and allowed hosts take effect on the next run, without a restart", () => {
  it("an http tool needs its host and secret; both added from the API, the next run calls it", async () => {
    await server.request("/api/agents", { method: "POST", json: weatherAgent("weather-live") });
    const before = await server.request("/api/credentials/check", {
      method: "POST",
      json: { spec: weatherAgent("weather-live") },
    });
    expect(before.body.hosts).toEqual([
      expect.objectContaining({ tool: "weather", host: `127.0.0.1:${apiPort}` }),
    ]);
    const first = await runAgent("weather-live");
    expect(first.eventsText).toMatch(/needs the secret WEATHER_TOKEN: add it on the Credentials page/);
    expect(seen).toEqual([]);

    const put = await server.request("/api/credentials/WEATHER_TOKEN", {
      method: "PUT",
      json: { kind: "secret", value: TOKEN },
    });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({
      name: "WEATHER_TOKEN",
      kind: "secret",
      last4: "cret",
      updatedAt: expect.any(String),
      source: "stored",
    });
    const second = await runAgent("weather-live");
    expect(second.eventsText).toMatch(/WADDLE_HTTP_ALLOW|allow-list/);
    expect(seen).toEqual([]);

    const allowed = await server.request("/api/allowlist", {
      method: "PUT",
      json: { http: [`127.0.0.1:${apiPort}`], llm: [] },
    });
    expect(allowed.body.http).toEqual([{ entry: `127.0.0.1:${apiPort}`, source: "stored" }]);
    const checked = await server.request("/api/allowlist/check", {
      method: "POST",
      json: { urls: [`http://127.0.0.1:${apiPort}/today`, "https://other.example.com/{city}", "{base}/x"] },
    });
    expect(checked.body.http.map((entry: { allowed: boolean | null }) => entry.allowed)).toEqual([
      true,
      false,
      null,
    ]);
    const third = await runAgent("weather-live");
    expect(seen).toEqual([TOKEN]);
    expect(third.run.status).toBe("finished");
    // The API echoed the token: events and the run's record show it redacted, never the value.
    expect(third.eventsText).toContain("[redacted]");
    expect(third.eventsText).not.toContain(TOKEN);
    expect(JSON.stringify(third.run)).not.toContain(TOKEN);
    const exported = await server.request("/api/runs?agentId=weather-live");
    expect(exported.text).not.toContain(TOKEN);
    const listed = await server.request("/api/credentials");
    expect(listed.text).not.toContain(TOKEN);
    // Nothing on disk holds the value in the clear.
    for (const file of readdirSync(server.dataDir)) {
      expect(readFileSync(path.join(server.dataDir, file)).includes(Buffer.from(TOKEN)), file).toBe(false);
    }

    await server.request("/api/credentials/WEATHER_TOKEN", { method: "DELETE" });
    const fourth = await runAgent("weather-live");
    expect(seen).toHaveLength(1);
    expect(fourth.eventsText).toMatch(/WEATHER_TOKEN/);
  });

  it("an LLM credential stored from the API runs the agent on its endpoint; without it the check says so", async () => {
    const llm = { provider: "openai", model: "fixture-model", credential: "FIXTURE_LLM" };
    const spec = AgentSpec.parse({
      version: 1,
      id: "fixture-cred",
      name: "fixture-cred",
      llm,
      tools: [{ name: "lookup", desc: "Looks up", impl: { kind: "mock", output: { ok: true } } }],
    });
    await server.request("/api/agents", { method: "POST", json: spec });
    const before = await server.request("/api/credentials/check", { method: "POST", json: { spec } });
    expect(before.body).toMatchObject({
      usable: false,
      llm: [{ path: "llm", code: "unknown_credential", credential: "FIXTURE_LLM" }],
    });
    // Without the credential the server falls back to the offline model, and the record says so.
    const fallback = await runAgent("fixture-cred");
    expect(fallback.run.offline).toBe(true);
    expect(fallback.run.offlineChosen).toBeUndefined();

    const put = await server.request("/api/credentials/FIXTURE_LLM", {
      method: "PUT",
      json: { kind: "llm", value: LLM_KEY, baseUrl: fixture.baseURL, models: ["fixture-model"] },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ baseUrl: fixture.baseURL, models: ["fixture-model"], last4: "cdef" });
    const after = await server.request("/api/credentials/check", { method: "POST", json: { spec } });
    expect(after.body).toMatchObject({
      usable: true,
      llm: [],
      model: `fixture-model @ ${new URL(fixture.baseURL).host}`,
    });
    const lists = await server.request("/api/allowlist");
    expect(lists.body.llm).toContainEqual({ entry: new URL(fixture.baseURL).origin, source: "credential" });

    fixture.enqueue(fixtureReply.finalAnswer(`The key is not ${LLM_KEY}, and all is well.`));
    const { run, eventsText } = await runAgent("fixture-cred");
    expect(run.status).toBe("finished");
    expect(run.offline).toBe(false);
    expect(fixture.completionRequests.at(-1)?.headers.authorization).toBe(`Bearer ${LLM_KEY}`);
    expect(eventsText).not.toContain(LLM_KEY);
    expect(JSON.stringify(run.result)).toContain("[redacted]");

    // Chosen in the run panel: the offline model runs, nothing is sent, and the record says so.
    const sent = fixture.completionRequests.length;
    const offline = await runAgent("fixture-cred", { offline: true });
    expect(offline.run.offline).toBe(true);
    expect(offline.run.offlineChosen).toBe(true);
    expect(offline.run.status).toBe("finished");
    expect(fixture.completionRequests.length).toBe(sent);
  });

  it("a stored secret an http tool's answer echoes never reaches the model's prompt", async () => {
    await server.request("/api/credentials/WEATHER_TOKEN", {
      method: "PUT",
      json: { kind: "secret", value: TOKEN },
    });
    const spec = weatherAgent("weather-model", {
      provider: "openai",
      model: "fixture-model",
      credential: "FIXTURE_LLM",
    });
    await server.request("/api/agents", { method: "POST", json: spec });
    fixture.enqueue(
      fixtureReply.json({ next_node: "weather", args: {} }),
      fixtureReply.finalAnswer("Sunny today."),
    );
    const sent = fixture.completionRequests.length;
    const { run } = await runAgent("weather-model");
    expect(run).toMatchObject({ status: "finished", offline: false });
    expect(seen.at(-1)).toBe(TOKEN);
    const prompts = fixture.completionRequests.slice(sent).map((request) => JSON.stringify(request.body));
    expect(prompts).toHaveLength(2);
    expect(prompts[1]).toContain("sunny");
    expect(prompts.join("\n")).not.toContain(TOKEN);
  });

  it("an LLM endpoint not allowed is refused at start, unless the person chose the offline model", async () => {
    const spec = AgentSpec.parse({
      version: 1,
      id: "far-endpoint",
      name: "far-endpoint",
      llm: { provider: "openai", model: "m", baseUrl: "http://10.1.2.3:8000/v1" },
      tools: [{ name: "lookup", desc: "Looks up", impl: { kind: "mock", output: { ok: true } } }],
    });
    await server.request("/api/agents", { method: "POST", json: spec });
    const check = await server.request("/api/credentials/check", { method: "POST", json: { spec } });
    expect(check.body.llm).toContainEqual(
      expect.objectContaining({ code: "host_not_allowed", origin: "http://10.1.2.3:8000" }),
    );
    const refused = await server.request("/api/runs", {
      method: "POST",
      json: { agentId: "far-endpoint", query: "q" },
    });
    expect(refused.status).toBe(422);
    const { run } = await runAgent("far-endpoint", { offline: true });
    expect(run).toMatchObject({ status: "finished", offline: true });
    await server.request("/api/allowlist", {
      method: "PUT",
      json: { http: [], llm: ["http://10.1.2.3:8000"] },
    });
    const allowed = await server.request("/api/credentials/check", { method: "POST", json: { spec } });
    expect(allowed.body.llm.map((problem: { code: string }) => problem.code)).toEqual(["no_key"]);
  });
});

describe("the secrets key at start", () => {
  it("a corrupted secrets.key or a wrong WADDLE_SECRETS_KEY stops the server, saying which", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "waddle-key-start-"));
    try {
      const first = await startTestServer({ dataDir });
      await first.request("/api/credentials/KEEP", { method: "PUT", json: { kind: "secret", value: TOKEN } });
      await first.close();
      const keyFile = path.join(dataDir, "secrets.key");
      const key = readFileSync(keyFile, "utf8");
      writeFileSync(keyFile, "not-a-key");
      await expect(startTestServer({ dataDir })).rejects.toThrow(
        /secrets key file .*secrets\.key is corrupted/,
      );
      writeFileSync(keyFile, key);
      await expect(startTestServer({ dataDir, env: { WADDLE_SECRETS_KEY: "0".repeat(64) } })).rejects.toThrow(
        /WADDLE_SECRETS_KEY is not the key the stored credentials were sealed with/,
      );
      // The right key again: the credential is still there.
      const again = await startTestServer({ dataDir });
      expect((await again.request("/api/credentials")).body.credentials).toEqual([
        expect.objectContaining({ name: "KEEP", source: "stored" }),
      ]);
      await again.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
