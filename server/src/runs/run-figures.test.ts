import {
  getRunFigures,
  getRunTokens,
  RESUME_NOTE_MAX_CHARS,
  RunEventsResponse,
  RunRecord,
  RunsListResponse,
  type RunEvent,
} from "@waddle/protocol";
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

const PAUSED_OR_DONE = new Set(["paused", "finished", "failed", "cancelled", "interrupted"] as const);

const getEvents = async (runId: string): Promise<RunEvent[]> =>
  RunEventsResponse.parse((await server.request(`/api/runs/${runId}/events?after=0`)).body).events;

const getRecord = async (runId: string): Promise<RunRecord> =>
  RunRecord.parse((await server.request(`/api/runs/${runId}`)).body);

/** The run as the server summarizes it (the record and the history list) against the designer's figures. */
async function expectSameFigures(runId: string): Promise<void> {
  const figures = getRunFigures(await getEvents(runId));
  const record = await getRecord(runId);
  expect({ steps: record.steps, tokens: getRunTokens(record.usage) }).toEqual(figures);
  const list = RunsListResponse.parse((await server.request(`/api/runs?agentId=${record.agentId}`)).body);
  const listed = list.runs.find((run) => run.id === runId);
  expect({ steps: listed?.steps, tokens: listed && getRunTokens(listed.usage) }).toEqual(figures);
}

describe("the run summary the server stores", () => {
  it("has the step count and tokens the designer derives from the same events, paused and finished", async () => {
    const started = await server.request("/api/runs", {
      method: "POST",
      json: { agentId: "email-approval", query: "Email Dana that the report is ready" },
    });
    expect(started.status).toBe(202);
    const runId = started.body.runId as string;
    const paused = await waitForRun(server, runId, PAUSED_OR_DONE);
    expect(paused.status).toBe("paused");
    await expectSameFigures(runId);

    // rejected with a note: the decision's event keeps the note, trimmed
    const resumed = await server.request(`/api/runs/${runId}/resume`, {
      method: "POST",
      json: {
        resumeToken: paused.pause?.resumeToken,
        decision: "reject",
        userInput: "  Too pushy, do not send.  ",
      },
    });
    expect(resumed.status).toBeLessThan(300);
    const ended = await waitForRun(server, runId);
    expect(ended.status).toBe("finished");
    const events = await getEvents(runId);
    const decision = events.find((event) => event.type === "resumed");
    expect(decision?.data).toMatchObject({ decision: "reject", note: "Too pushy, do not send." });
    await expectSameFigures(runId);
    // the rejected call is a step: the run recorded it
    expect(getRunFigures(events).steps).toBeGreaterThanOrEqual(3);
  });

  it("keeps a long note bounded and a blank one out of the event", async () => {
    const run = async (userInput: string): Promise<RunEvent | undefined> => {
      const started = await server.request("/api/runs", {
        method: "POST",
        json: { agentId: "email-approval", query: "Email Dana that the report is ready" },
      });
      const runId = started.body.runId as string;
      const paused = await waitForRun(server, runId, PAUSED_OR_DONE);
      const resumed = await server.request(`/api/runs/${runId}/resume`, {
        method: "POST",
        json: { resumeToken: paused.pause?.resumeToken, decision: "approve", userInput },
      });
      expect(resumed.status).toBeLessThan(300);
      await waitForRun(server, runId);
      return (await getEvents(runId)).find((event) => event.type === "resumed");
    };
    const long = await run("n".repeat(RESUME_NOTE_MAX_CHARS + 500));
    const note = (long?.data as { note?: string }).note;
    expect(note).toHaveLength(RESUME_NOTE_MAX_CHARS);
    expect(note?.endsWith("…")).toBe(true);
    const blank = await run("   ");
    expect(blank?.data).not.toHaveProperty("note");
  });
});
