import { ResumeConflictDetails, TERMINAL_EVENT_TYPES } from "@waddle/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";
import { waitForEvent, waitForRun } from "../testing/wait-for-run.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ maxConcurrentRuns: 4 });
});
afterAll(async () => {
  await server.stop();
});

async function startPaused(): Promise<{ runId: string; resumeToken: string }> {
  const started = await server.request("/api/runs", {
    method: "POST",
    json: { agentId: "email-approval", query: "Email Dana that the Q3 report is ready" },
  });
  const runId = started.body.runId as string;
  const paused = await waitForRun(server, runId, new Set(["paused", "failed", "finished"]));
  return { runId, resumeToken: paused.pause!.resumeToken };
}

describe("answers to one pause at the same moment", () => {
  it("accepts one of two resumes, refuses the other with 409, and the run finishes", async () => {
    const { runId, resumeToken } = await startPaused();
    const body = { resumeToken, decision: "approve" as const };
    const answers = await Promise.all(
      [1, 2].map(() =>
        server.runs.resumeRun(runId, body).then(
          () => 202,
          (error: { status?: number }) => error.status,
        ),
      ),
    );
    expect(answers.sort()).toEqual([202, 409]);
    const run = await waitForRun(server, runId);
    expect(run.status).toBe("finished");
    expect(run.error).toBeNull();
  });

  it("tells the loser over REST that the pause was already answered, with the run's state now", async () => {
    const { runId, resumeToken } = await startPaused();
    const answer = (decision: "approve" | "reject") =>
      server.request(`/api/runs/${runId}/resume`, {
        method: "POST",
        json: { resumeToken, decision },
      });
    const answers = await Promise.all([answer("approve"), answer("reject")]);
    expect(answers.map((response) => response.status).sort()).toEqual([202, 409]);
    const loser = answers.find((response) => response.status === 409)!;
    expect(ResumeConflictDetails.safeParse(loser.body.details).success).toBe(true);
    expect(loser.body).toMatchObject({
      code: "invalid_state",
      message: expect.stringContaining("already answered"),
      details: { reason: "already_answered", run: { id: runId } },
    });
    expect(loser.body.details.status).toBe(loser.body.details.run.status);
    expect(["queued", "running", "finished"]).toContain(loser.body.details.status);

    // Told the same once the run has ended, with its end.
    const finished = await waitForRun(server, runId);
    const late = await answer("approve");
    expect(late.status).toBe(409);
    expect(late.body.details).toMatchObject({ reason: "already_answered", status: finished.status });
    expect(late.body.details.run).toEqual((await server.request(`/api/runs/${runId}`)).body);
  });

  it("tells a token that is no pause's and a resume of a cancelled run apart from an answered pause", async () => {
    const { runId } = await startPaused();
    const stale = await server.request(`/api/runs/${runId}/resume`, {
      method: "POST",
      json: { resumeToken: "not-a-token", decision: "approve" },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toContain("not the run's current one");
    expect(stale.body.details).toMatchObject({ reason: "stale_token", status: "paused" });
    await server.request(`/api/runs/${runId}/cancel`, { method: "POST" });
    const ended = await server.request(`/api/runs/${runId}/resume`, {
      method: "POST",
      json: { resumeToken: "not-a-token", decision: "approve" },
    });
    expect(ended.body.message).toContain("is cancelled, not paused");
    expect(ended.body.details).toMatchObject({ reason: "not_paused", status: "cancelled" });
  });

  it.each([
    ["a resume and a cancel", "resume"],
    ["a cancel and a resume", "cancel"],
  ] as const)("ends the run once for %s", async (_label, first) => {
    const { runId, resumeToken } = await startPaused();
    const resume = () => server.runs.resumeRun(runId, { resumeToken, decision: "approve" });
    const cancel = () => server.runs.cancelRun(runId);
    await Promise.allSettled(first === "resume" ? [resume(), cancel()] : [cancel(), resume()]);
    const run = await waitForRun(server, runId);
    expect(["cancelled", "finished"]).toContain(run.status);
    expect(run.error).toBeNull();
    const events = await server.store.listEvents(runId);
    expect(events.filter((event) => TERMINAL_EVENT_TYPES.has(event.type))).toHaveLength(1);
  });

  it("refuses a second resume at once while the resumed run goes on, instead of holding it to the end", async () => {
    const spec = {
      version: 1,
      id: "approve-then-wait",
      name: "Approve then wait",
      tools: [
        { name: "ask_first", requiresApproval: true, impl: { kind: "mock", output: { ok: true } } },
        { name: "wait_long", impl: { kind: "mock", latencyMs: 30_000, output: { ok: true } } },
      ],
      hints: { ordering_hints: ["ask_first", "wait_long"] },
    };
    expect((await server.request("/api/agents", { method: "POST", json: spec })).status).toBe(201);
    const started = await server.request("/api/runs", {
      method: "POST",
      json: { agentId: "approve-then-wait", query: "go" },
    });
    const runId = started.body.runId as string;
    const paused = await waitForRun(server, runId, new Set(["paused", "failed", "finished"]));
    const body = { resumeToken: paused.pause!.resumeToken, decision: "approve" as const };
    await server.runs.resumeRun(runId, body);
    await waitForEvent(
      server,
      runId,
      (event) => event.type === "tool_start" && event.data.tool === "wait_long",
    );
    const second = await server.request(`/api/runs/${runId}/resume`, { method: "POST", json: body });
    expect(second.status).toBe(409);
    expect((await server.store.getRun(runId))?.status).toBe("running");
    await server.runs.cancelRun(runId);
  });
});
