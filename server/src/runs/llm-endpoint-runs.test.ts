import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { AgentSpec, type RunEvent } from "@waddle/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";
import { waitForRun } from "../testing/wait-for-run.js";

/** An internal host: records what reaches it and answers with a long error page that echoes the key. */
let listener: Server;
let listenerUrl: string;
const received: { path: string; authorization: string | undefined }[] = [];
const SERVER_KEY = "sk-openai-server-key-0123456789";
const LISTENER_KEY = "listener-key-value-0123456789";
beforeAll(async () => {
  listener = createServer((request, response) => {
    received.push({ path: request.url ?? "", authorization: request.headers.authorization });
    request.resume();
    response.writeHead(400, { "content-type": "application/json" });
    response.end(
      JSON.stringify({
        error: {
          message: `internal admin console, build 7 ${"x".repeat(5_000)} you sent ${request.headers.authorization}`,
        },
      }),
    );
  });
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  listenerUrl = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => listener.close(() => resolve())));

const env = { OPENAI_API_KEY: SERVER_KEY, HOME: "/root", LISTENER_KEY };
const remote = (extra: Record<string, unknown> = {}) => ({
  provider: "openai",
  model: "gpt-4o-mini",
  baseUrl: `${listenerUrl}/v1`,
  ...extra,
});
const agent = (id: string, extra: Record<string, unknown>) =>
  AgentSpec.parse({
    version: 1,
    id,
    name: id,
    tools: [{ name: "lookup", desc: "Looks up", impl: { kind: "mock", output: { ok: true } } }],
    ...extra,
  });

async function save(server: TestServer, spec: AgentSpec): Promise<void> {
  expect((await server.request("/api/agents", { method: "POST", json: spec })).status).toBe(201);
}

describe("LLM endpoints a saved agent names, on a server that allows none of them", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env });
  });
  afterAll(() => server.stop());

  // Functions: the listener's URL is known only once it listens.
  const hostile: [string, () => Record<string, unknown>][] = [
    ["llm with the server's key", () => ({ llm: remote() })],
    ["llm with HOME as its key", () => ({ llm: remote({ apiKeyEnv: "HOME" }) })],
    [
      "llm at OpenAI with HOME as its key",
      () => ({ llm: { provider: "openai", model: "m", apiKeyEnv: "HOME" } }),
    ],
    ["summarizerLlm", () => ({ summarizerLlm: remote() })],
    ["routerLlm", () => ({ routerLlm: remote() })],
    ["candidateLlms", () => ({ candidateLlms: [{ ...remote(), id: "internal" }] })],
    [
      "an llm tool's impl.llm",
      () => ({ tools: [{ name: "ask", desc: "Asks", impl: { kind: "llm", prompt: "hi", llm: remote() } }] }),
    ],
  ];

  it.each(hostile)(
    "refuses a run whose %s is not allowed, with 422 and nothing sent",
    async (label, extra) => {
      const id = `hostile-${hostile.findIndex(([name]) => name === label)}`;
      await save(server, agent(id, extra()));
      const answer = await server.request("/api/runs", {
        method: "POST",
        json: { agentId: id, query: "hi" },
      });
      expect(answer.status).toBe(422);
      expect(answer.body).toMatchObject({
        code: "llm_endpoint_not_allowed",
        message: expect.stringMatching(/WADDLE_LLM_ALLOW|WADDLE_LLM_KEY_ENVS/),
        details: {
          refusals: expect.arrayContaining([expect.objectContaining({ path: expect.any(String) })]),
        },
      });
      expect(JSON.stringify(answer.body)).not.toContain("/root");
      expect(await server.store.listRuns({ agentId: id })).toEqual([]);
      expect(received).toEqual([]);
    },
  );

  it("fails a subagent whose endpoint is not allowed before it sends anything", async () => {
    await save(server, agent("inner-hostile", { llm: remote({ apiKeyEnv: "HOME" }) }));
    await save(
      server,
      agent("outer", {
        tools: [{ name: "delegate", desc: "Delegates", impl: { kind: "agent", agentId: "inner-hostile" } }],
      }),
    );
    const { runId } = (
      await server.request("/api/runs", { method: "POST", json: { agentId: "outer", query: "go" } })
    ).body;
    await waitForRun(server, runId);
    const events: RunEvent[] = await server.store.listEvents(runId);
    const error = events.find((event) => event.type === "tool_error");
    expect(JSON.stringify(error?.data)).toMatch(/WADDLE_LLM_ALLOW/);
    expect(received).toEqual([]);
  });
});

describe("LLM endpoints the server lists", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env, llmAllow: [listenerUrl], llmKeyEnvs: ["LISTENER_KEY"] });
  });
  afterAll(() => server.stop());

  it("sends the listed key to the listed endpoint, and keeps its error page out of events", async () => {
    await save(server, agent("listed", { llm: remote({ apiKeyEnv: "LISTENER_KEY" }) }));
    const { runId } = (
      await server.request("/api/runs", { method: "POST", json: { agentId: "listed", query: "hi" } })
    ).body;
    const run = await waitForRun(server, runId);
    expect(received.at(-1)).toEqual({
      path: "/v1/chat/completions",
      authorization: `Bearer ${LISTENER_KEY}`,
    });
    expect(run.status).toBe("failed");
    const events = JSON.stringify(await server.store.listEvents(runId));
    expect(events).toContain("internal admin console");
    expect(events).not.toContain(LISTENER_KEY);
    expect(events).not.toContain("x".repeat(400));
    const failed = (await server.store.listEvents(runId)).find((event) => event.type === "run_failed");
    expect((failed?.data as { error: { message: string } }).error.message.length).toBeLessThanOrEqual(400);
  });
});

describe("a paused run after the server narrowed its LLM endpoints", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "waddle-narrowed-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("is refused at resume (422) and stays paused", async () => {
    // No key: the run goes offline and pauses for approval, sending nothing.
    const before = received.length;
    const first = await startTestServer({ dataDir, llmAllow: [listenerUrl] });
    await save(
      first,
      agent("narrowed", {
        llm: remote(),
        tools: [
          { name: "send", desc: "Sends", requiresApproval: true, impl: { kind: "mock", output: { ok: 1 } } },
        ],
      }),
    );
    const { runId } = (
      await first.request("/api/runs", { method: "POST", json: { agentId: "narrowed", query: "send it" } })
    ).body;
    const paused = await waitForRun(first, runId, new Set(["paused"]));
    await first.close();
    const second = await startTestServer({ dataDir });
    try {
      const answer = await second.request(`/api/runs/${runId}/resume`, {
        method: "POST",
        json: { resumeToken: paused.pause!.resumeToken, decision: "approve" },
      });
      expect(answer.status).toBe(422);
      expect(answer.body).toMatchObject({ code: "llm_endpoint_not_allowed" });
      expect((await second.store.getRun(runId))?.status).toBe("paused");
      expect(received.length).toBe(before);
    } finally {
      await second.close();
    }
  }, 30_000);
});
