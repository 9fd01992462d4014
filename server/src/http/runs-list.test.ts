import { FinalPayload, RunsListResponse, type RunStatus } from "@waddle/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";

let server: TestServer;
const noRuns = async () => {
  throw new Error("runs here are written to the store directly");
};

const STATUSES: readonly RunStatus[] = [
  "queued",
  "running",
  "paused",
  "finished",
  "failed",
  "cancelled",
  "interrupted",
];

beforeAll(async () => {
  server = await startTestServer({ createPlanner: noRuns });
  // Two of each status for "triage", oldest first; one finished run of "other".
  for (const round of [1, 2]) {
    for (const status of STATUSES) {
      await server.store.createRun({
        id: `run_${status}_${round}`,
        agentId: "triage",
        agentVersion: 1,
        query: "q",
        status,
      });
    }
  }
  await server.store.createRun({
    id: "run_other",
    agentId: "other",
    agentVersion: 1,
    query: "q",
    status: "finished",
  });
  const usage = { promptTokens: 10, completionTokens: 5, reasoningTokens: 0, costUsd: 0.01, llmCalls: 2 };
  await server.store.updateRun("run_finished_2", {
    startedAt: "2026-01-01T00:00:00.000Z",
    finishedAt: "2026-01-01T00:00:03.000Z",
    usage,
    result: {
      kind: "finish",
      reason: "answer_complete",
      payload: FinalPayload.parse({ answer: "done" }),
      metadata: { steps: 3, llmCalls: 2, autoSeqSavedCalls: 1, usage, durationMs: 2_900 },
    },
  });
});
afterAll(() => server.stop());

const list = async (query: string) => {
  const response = await server.request(`/api/runs?${query}`);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return RunsListResponse.parse(response.body).runs;
};

describe("GET /api/runs", () => {
  it("filters by a comma list of statuses, newest first", async () => {
    expect((await list("agentId=triage&status=finished,failed")).map((run) => run.id)).toEqual([
      "run_failed_2",
      "run_finished_2",
      "run_failed_1",
      "run_finished_1",
    ]);
    expect((await list("status=finished")).map((run) => run.id)).toEqual([
      "run_other",
      "run_finished_2",
      "run_finished_1",
    ]);
    expect(await list("agentId=triage&status=paused,%20paused")).toHaveLength(2);
  });

  it("answers at most `limit` runs", async () => {
    expect((await list("agentId=triage&limit=3")).map((run) => run.id)).toEqual([
      "run_interrupted_2",
      "run_cancelled_2",
      "run_failed_2",
    ]);
    expect(await list("agentId=triage")).toHaveLength(14);
    expect(await list("agentId=triage&status=queued&limit=1")).toHaveLength(1);
  });

  it("gives each run its history summary: steps, LLM calls, tokens, cost and duration", async () => {
    const [run] = await list("agentId=triage&status=finished&limit=1");
    expect(run).toMatchObject({
      id: "run_finished_2",
      steps: 3,
      durationMs: 2_900,
      usage: { llmCalls: 2, promptTokens: 10, completionTokens: 5, costUsd: 0.01 },
    });
  });

  it.each([
    ["status=finished,done", 'unknown run status "done": use a comma list of queued, running, paused'],
    ["status=", 'unknown run status ""'],
    ["status=finished&status=failed", 'query parameter "status"'],
    ["limit=0", 'query parameter "limit"'],
    ["limit=1001", 'query parameter "limit"'],
    ["limit=ten", 'query parameter "limit"'],
    ["agentId=Not%20A%20Slug", 'query parameter "agentId"'],
    ["order=asc", "order"],
  ])("answers 400 for %s, saying what to fix", async (query, message) => {
    const response = await server.request(`/api/runs?${query}`);
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("validation_failed");
    expect(response.body.message).toContain(message);
  });
});
