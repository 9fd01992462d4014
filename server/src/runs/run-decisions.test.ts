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

/** Starts email-approval, which pauses before send_email; answers with its token and the paused args. */
async function startPaused(): Promise<{ runId: string; resumeToken: string; args: Record<string, unknown> }> {
  const started = await server.request("/api/runs", {
    method: "POST",
    json: { agentId: "email-approval", query: "Email Dana that the Q3 report is ready" },
  });
  expect(started.status).toBe(202);
  const runId = started.body.runId as string;
  const run = await waitForRun(server, runId, SETTLED);
  expect(run.status).toBe("paused");
  const args = (run.pause?.payload as { args?: Record<string, unknown> }).args ?? {};
  return { runId, resumeToken: run.pause!.resumeToken, args };
}

async function decide(body: Record<string, unknown> & { runId: string }): Promise<void> {
  const { runId, ...rest } = body;
  const answer = await server.request(`/api/runs/${runId}/resume`, { method: "POST", json: rest });
  expect(answer.status).toBe(202);
  await waitForRun(server, runId);
}

describe("a run's decisions in its record", () => {
  it("counts an approval with edited args and a rejection, over GET /api/runs/:id and the list", async () => {
    const edited = await startPaused();
    await decide({
      runId: edited.runId,
      resumeToken: edited.resumeToken,
      decision: "edit",
      args: { ...edited.args, subject: "Q3 report (edited)" },
    });
    const rejected = await startPaused();
    await decide({ runId: rejected.runId, resumeToken: rejected.resumeToken, decision: "reject" });
    const approved = await startPaused();
    await decide({ runId: approved.runId, resumeToken: approved.resumeToken, decision: "approve" });

    const get = async (runId: string) => (await server.request(`/api/runs/${runId}`)).body;
    expect((await get(edited.runId)).decisions).toEqual({ approve: 0, edit: 1, reject: 0 });
    expect((await get(rejected.runId)).decisions).toEqual({ approve: 0, edit: 0, reject: 1 });
    expect((await get(approved.runId)).decisions).toEqual({ approve: 1, edit: 0, reject: 0 });

    const list = (await server.request("/api/runs?agentId=email-approval")).body.runs as {
      id: string;
      decisions?: unknown;
    }[];
    expect(list.find((run) => run.id === edited.runId)?.decisions).toEqual({
      approve: 0,
      edit: 1,
      reject: 0,
    });
    expect(list.find((run) => run.id === rejected.runId)?.decisions).toEqual({
      approve: 0,
      edit: 0,
      reject: 1,
    });
  });

  it("has none for a run that never paused", async () => {
    const started = await server.request("/api/runs", {
      method: "POST",
      json: { agentId: "support-triage", query: "My invoice shows a duplicate charge" },
    });
    const run = await waitForRun(server, started.body.runId as string);
    expect(run.status).toBe("finished");
    expect("decisions" in (await server.request(`/api/runs/${run.id}`)).body).toBe(false);
  });
});
