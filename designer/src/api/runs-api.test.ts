import { describe, expect, it } from "vitest";
import { createRecordingFetch } from "../testing/create-recording-fetch.js";
import { createRunsApi } from "./runs-api.js";
import { createApiRequester } from "./api-requester.js";

describe("createRunsApi", () => {
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
    const { fetcher, calls } = createRecordingFetch(({ method, url }) => {
      if (method === "POST" && url === "/api/runs") return { status: 202, body: { runId: "run-1" } };
      if (url.startsWith("/api/runs?")) return { status: 200, body: { runs: [run] } };
      if (url === "/api/runs/run-1") return { status: 200, body: run };
      if (url.startsWith("/api/runs/run-1/events")) return { status: 200, body: { events: [event] } };
      if (url === "/api/runs/run-1/cancel")
        return { status: 200, body: { runId: "run-1", status: "cancelled" } };
      if (url === "/api/runs/run-1/resume") return { status: 202, body: { runId: "run-1" } };
      return { status: 404, body: { code: "not_found", message: url } };
    });
    const client = createRunsApi(createApiRequester({ getToken: () => null, fetch: fetcher }));
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
    await expect(client.listRuns({ agentId: "test-agent", rating: "down" })).resolves.toHaveLength(1);
    expect(calls.at(-1)?.url).toBe("/api/runs?agentId=test-agent&rating=down");
    await expect(client.listRuns({ agentId: "test-agent", trigger: "trg_1" })).resolves.toHaveLength(1);
    expect(calls.at(-1)?.url).toBe("/api/runs?agentId=test-agent&trigger=trg_1");
  });

  it("validates run answers with the protocol schemas", async () => {
    const { fetcher } = createRecordingFetch(() => ({
      status: 200,
      body: { events: [{ ...event, type: "nonsense" }] },
    }));
    const client = createRunsApi(createApiRequester({ getToken: () => null, fetch: fetcher }));
    await expect(client.getRunEvents("run-1")).rejects.toMatchObject({ code: "invalid_response" });
  });

  it("reports a pause already answered as a 409 with the run's status", async () => {
    const { fetcher } = createRecordingFetch(() => ({
      status: 409,
      body: { code: "invalid_state", message: "not paused", details: { status: "running" } },
    }));
    const client = createRunsApi(createApiRequester({ getToken: () => null, fetch: fetcher }));
    await expect(client.resumeRun("run-1", { resumeToken: "t", decision: "reject" })).rejects.toMatchObject({
      code: "invalid_state",
      status: 409,
      details: { status: "running" },
    });
  });
});
