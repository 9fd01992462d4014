import type { RunEvent, SessionRecord } from "@waddle/protocol";
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

async function runTurn(sessionId: string, query: string): Promise<SessionRecord> {
  const started = await server.request(`/api/sessions/${sessionId}/turns`, {
    method: "POST",
    json: { query },
  });
  expect(started.status, started.text).toBe(202);
  await waitForRun(server, started.body.runId as string);
  return (await server.request(`/api/sessions/${sessionId}`)).body as SessionRecord;
}

describe("a chat on the offline model", () => {
  it("answers 'Shorten that to one sentence' from the previous turn's answer, running no tool", async () => {
    const created = await server.request("/api/sessions", {
      method: "POST",
      json: { agentId: "support-triage" },
    });
    const sessionId = created.body.sessionId as string;
    const first = (await runTurn(sessionId, "My invoice shows a duplicate charge for March")).turns[0];
    expect(first?.answer?.length ?? 0).toBeGreaterThan(40);
    const second = (await runTurn(sessionId, "Shorten that to one sentence")).turns[1];
    expect(second?.status).toBe("finished");
    const answer = second?.answer ?? "";
    expect(answer).not.toContain("Shorten that");
    expect(answer.length).toBeLessThan(first?.answer?.length ?? 0);
    expect(first?.answer?.replace(/\s+/g, " ").startsWith(answer.replace(/…$/, ""))).toBe(true);
    const events = (await server.request(`/api/runs/${second?.runId}/events`)).body.events as RunEvent[];
    expect(events.filter((event) => event.type === "tool_start")).toEqual([]);
  });
});
