import { describe, expect, it } from "vitest";
import { makeSpec } from "../testing/make-spec.js";
import { ApiClient } from "./api-client.js";
import { ApiError } from "./api-error.js";

type Handler = (request: { method: string; url: string; headers: Record<string, string>; body: unknown }) => {
  status: number;
  body?: unknown;
};

/** A fetch that answers from a handler and records every request. */
function createFetch(handler: Handler) {
  const calls: Array<{ method: string; url: string; headers: Record<string, string>; body: unknown }> = [];
  const fetcher = (async (url: string, init: RequestInit = {}) => {
    const request = {
      method: init.method ?? "GET",
      url,
      headers: init.headers as Record<string, string>,
      body: typeof init.body === "string" ? (JSON.parse(init.body) as unknown) : undefined,
    };
    calls.push(request);
    const { status, body } = handler(request);
    return new Response(body === undefined ? null : typeof body === "string" ? body : JSON.stringify(body), {
      status,
    });
  }) as typeof fetch;
  return { fetcher, calls };
}

describe("ApiClient", () => {
  it("parses answers with the protocol schemas and sends the token", async () => {
    const record = { id: "test-agent", version: 3, spec: makeSpec(), updatedAt: "2025-01-01T00:00:00Z" };
    const { fetcher, calls } = createFetch(() => ({ status: 200, body: record }));
    const client = new ApiClient({ getToken: () => "secret", fetch: fetcher });
    const answer = await client.getAgent("test-agent");
    expect(answer.spec.tools).toHaveLength(3);
    expect(calls[0]).toMatchObject({
      method: "GET",
      url: "/api/agents/test-agent",
      headers: { authorization: "Bearer secret" },
    });
  });

  it("rejects an answer of the wrong shape", async () => {
    const { fetcher } = createFetch(() => ({ status: 200, body: { agents: [{ id: "Not A Slug" }] } }));
    const client = new ApiClient({ getToken: () => null, fetch: fetcher });
    await expect(client.listAgents()).rejects.toMatchObject({ code: "invalid_response" });
  });

  it("turns a 409 into a conflict error with parsed details", async () => {
    const { fetcher, calls } = createFetch(() => ({
      status: 409,
      body: { code: "conflict", message: "stale", details: { currentVersion: 4, baseVersion: 3 } },
    }));
    const client = new ApiClient({ getToken: () => null, fetch: fetcher });
    const error = await client
      .updateAgent("test-agent", { spec: makeSpec(), baseVersion: 3 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      code: "conflict",
      status: 409,
      details: { currentVersion: 4, baseVersion: 3 },
    });
    expect(calls[0]?.body).toMatchObject({ baseVersion: 3 });
  });

  it("asks for a token on 401 and retries once with it", async () => {
    let token: string | null = null;
    let prompts = 0;
    const { fetcher, calls } = createFetch(({ headers }) =>
      headers.authorization === "Bearer right"
        ? { status: 200, body: { ok: true, version: "1" } }
        : { status: 401, body: { code: "unauthorized", message: "token" } },
    );
    const client = new ApiClient({
      getToken: () => token,
      fetch: fetcher,
      onUnauthorized: async () => {
        prompts += 1;
        token = "right";
        return true;
      },
    });
    await expect(client.health()).resolves.toMatchObject({ ok: true });
    expect(prompts).toBe(1);
    expect(calls).toHaveLength(2);
  });

  it("reports an unreachable server as a network error", async () => {
    const client = new ApiClient({
      getToken: () => null,
      fetch: (async () => {
        throw new TypeError("fetch failed");
      }) as typeof fetch,
    });
    await expect(client.listTools()).rejects.toMatchObject({ code: "network_error", status: 0 });
  });
});

describe("ApiClient runs", () => {
  const run = {
    id: "run-1",
    agentId: "test-agent",
    agentVersion: 2,
    status: "paused",
    query: "q",
    result: null,
    usage: { promptTokens: 1, completionTokens: 2, reasoningTokens: 0, costUsd: 0, llmCalls: 1 },
    startedAt: "2025-01-01T00:00:00Z",
    finishedAt: null,
  };
  const event = {
    runId: "run-1",
    seq: 3,
    ts: 10,
    step: 0,
    type: "reasoning",
    data: { phase: "plan", summary: "s" },
  };

  it("starts, lists, reads, cancels and resumes runs on the documented routes", async () => {
    const { fetcher, calls } = createFetch(({ method, url }) => {
      if (method === "POST" && url === "/api/runs") return { status: 202, body: { runId: "run-1" } };
      if (url.startsWith("/api/runs?")) return { status: 200, body: { runs: [run] } };
      if (url === "/api/runs/run-1") return { status: 200, body: run };
      if (url.startsWith("/api/runs/run-1/events")) return { status: 200, body: { events: [event] } };
      if (url === "/api/runs/run-1/cancel")
        return { status: 200, body: { runId: "run-1", status: "cancelled" } };
      if (url === "/api/runs/run-1/resume") return { status: 202, body: { runId: "run-1" } };
      return { status: 404, body: { code: "not_found", message: url } };
    });
    const client = new ApiClient({ getToken: () => null, fetch: fetcher });
    await expect(client.startRun({ agentId: "test-agent", query: "q" })).resolves.toEqual({ runId: "run-1" });
    await expect(
      client.listRuns({ agentId: "test-agent", status: ["finished", "failed"], limit: 20 }),
    ).resolves.toHaveLength(1);
    await expect(client.getRun("run-1")).resolves.toMatchObject({ status: "paused" });
    await expect(client.getRunEvents("run-1", 2)).resolves.toEqual([event]);
    await expect(client.cancelRun("run-1")).resolves.toEqual({ runId: "run-1", status: "cancelled" });
    await expect(client.resumeRun("run-1", { resumeToken: "t", decision: "approve" })).resolves.toEqual({
      runId: "run-1",
    });
    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual([
      "POST /api/runs",
      "GET /api/runs?agentId=test-agent&status=finished%2Cfailed&limit=20",
      "GET /api/runs/run-1",
      "GET /api/runs/run-1/events?after=2",
      "POST /api/runs/run-1/cancel",
      "POST /api/runs/run-1/resume",
    ]);
    expect(calls[0]?.body).toEqual({ agentId: "test-agent", query: "q" });
    expect(calls[5]?.body).toEqual({ resumeToken: "t", decision: "approve" });
  });

  it("validates run answers with the protocol schemas", async () => {
    const { fetcher } = createFetch(() => ({
      status: 200,
      body: { events: [{ ...event, type: "nonsense" }] },
    }));
    const client = new ApiClient({ getToken: () => null, fetch: fetcher });
    await expect(client.getRunEvents("run-1")).rejects.toMatchObject({ code: "invalid_response" });
  });

  it("reports a pause already answered as a 409 with the run's status", async () => {
    const { fetcher } = createFetch(() => ({
      status: 409,
      body: { code: "invalid_state", message: "not paused", details: { status: "running" } },
    }));
    const client = new ApiClient({ getToken: () => null, fetch: fetcher });
    await expect(client.resumeRun("run-1", { resumeToken: "t", decision: "reject" })).rejects.toMatchObject({
      code: "invalid_state",
      status: 409,
      details: { status: "running" },
    });
  });
});
