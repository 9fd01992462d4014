import { TERMINAL_EVENT_TYPES } from "@waddle/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";
import { waitForRun } from "../testing/wait-for-run.js";

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
});
