import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";
import { waitForRun } from "../testing/wait-for-run.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop();
});

const SETTLED = new Set(["paused", "failed", "finished", "cancelled"] as const);

async function startPaused(agentId = "email-approval"): Promise<{ runId: string; resumeToken: string }> {
  const started = await server.request("/api/runs", {
    method: "POST",
    json: { agentId, query: "Email Dana that the Q3 report is ready" },
  });
  expect(started.status).toBe(202);
  const runId = started.body.runId as string;
  const run = await waitForRun(server, runId, SETTLED);
  expect(run.status).toBe("paused");
  return { runId, resumeToken: run.pause!.resumeToken };
}

const resume = (runId: string, body: Record<string, unknown>) =>
  server.request(`/api/runs/${runId}/resume`, { method: "POST", json: body });

describe("a resume decision the planner refuses", () => {
  it("answers an edit without args with 400 and leaves the run paused", async () => {
    const { runId, resumeToken } = await startPaused();
    const refused = await resume(runId, { resumeToken, decision: "edit" });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe("validation_failed");
    expect(refused.body.message).toContain("args");
    const run = (await server.request(`/api/runs/${runId}`)).body;
    expect(run.status).toBe("paused");
    expect(run.pause.resumeToken).toBe(resumeToken);
    expect(await server.store.loadPausedState(resumeToken)).toBeDefined();
  });

  it("keeps the run paused, with the refusal as its error, when edited args fail validation", async () => {
    const { runId, resumeToken } = await startPaused();
    const accepted = await resume(runId, { resumeToken, decision: "edit", args: { to: 5 } });
    expect(accepted.status).toBe(202);
    const refused = await waitForRun(server, runId, SETTLED);
    expect(refused.status).toBe("paused");
    expect(refused.pause?.resumeToken).toBe(resumeToken);
    expect(refused.finishedAt).toBeNull();
    expect(refused.error?.code).toBe("invalid_resume");
    expect(refused.error?.message).toContain("send_email");

    const approved = await resume(runId, { resumeToken, decision: "approve" });
    expect(approved.status).toBe(202);
    const finished = await waitForRun(server, runId);
    expect(finished.status).toBe("finished");
    expect(finished.error).toBeNull();
  });
});

describe("a paused run whose agent was deleted", () => {
  it("answers a resume with 409 saying to cancel, stays paused, and cancels", async () => {
    const example = (await server.request("/api/agents/email-approval")).body;
    const copy = { ...example.spec, id: "email-approval-copy" };
    expect((await server.request("/api/agents", { method: "POST", json: copy })).status).toBe(201);
    const { runId, resumeToken } = await startPaused("email-approval-copy");
    expect((await server.request("/api/agents/email-approval-copy", { method: "DELETE" })).status).toBe(204);
    const refused = await resume(runId, { resumeToken, decision: "approve" });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: "invalid_state",
      message: expect.stringContaining("was deleted"),
      details: { agentId: "email-approval-copy" },
    });
    expect((await server.request(`/api/runs/${runId}`)).body.status).toBe("paused");
    const cancelled = await server.request(`/api/runs/${runId}/cancel`, { method: "POST" });
    expect(cancelled.body.status).toBe("cancelled");
  });
});

describe("cancel of a paused run", () => {
  it("ends with the steps, calls and time the run had, not zeros", async () => {
    const { runId } = await startPaused();
    // A resume waits for the job that paused to end (it records the pause's metadata last): a barrier.
    expect((await resume(runId, { resumeToken: "stale", decision: "approve" })).status).toBe(409);
    const paused = await server.store.getRun(runId);
    const metadata = paused?.result?.kind === "pause" ? paused.result.metadata : undefined;
    expect(metadata?.steps).toBeGreaterThan(0);
    const cancelled = await server.request(`/api/runs/${runId}/cancel`, { method: "POST" });
    expect(cancelled.body.status).toBe("cancelled");
    const last = (await server.store.listEvents(runId)).at(-1);
    expect(last?.type).toBe("run_finished");
    expect(last?.type === "run_finished" && last.data.metadata).toEqual(metadata);
  });
});
