import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

const create = (json: unknown) => server.request("/api/sessions", { method: "POST", json });

/** Holds a HUMAN_GATED result for a person, as a task's end does. */
async function holdMerge(sessionId: string, mergeId: string) {
  await server.store.sessions.update(sessionId, () => ({
    events: [
      {
        type: "merge_pending",
        data: {
          mergeId,
          name: "research",
          strategy: "HUMAN_GATED",
          tasks: [
            { taskId: "task_1", runId: "run_task1", name: "research", status: "completed", result: "x" },
          ],
        },
      },
    ],
    result: undefined,
  }));
}

describe("/api/sessions", () => {
  it("creates a session on the agent's latest version, lists it newest first and reads it", async () => {
    const first = await create({ agentId: "support-triage", title: "Billing questions" });
    expect(first.status).toBe(201);
    expect(first.body.sessionId).toMatch(/^ses_/);
    expect(first.headers.get("location")).toBe(`/api/sessions/${first.body.sessionId}`);
    const second = await create({ agentId: "support-triage" });
    const latest = (await server.request("/api/agents/support-triage")).body.version;
    const read = await server.request(`/api/sessions/${second.body.sessionId}`);
    expect(read.body).toMatchObject({
      id: second.body.sessionId,
      agentId: "support-triage",
      agentVersion: latest,
      title: "",
      status: "idle",
      turns: [],
      tasks: [],
      pendingMerges: [],
      usage: { llmCalls: 0 },
    });
    const listed = await server.request("/api/sessions?agentId=support-triage&limit=2");
    expect(listed.body.sessions.map((session: { id: string }) => session.id)).toEqual([
      second.body.sessionId,
      first.body.sessionId,
    ]);
    expect(listed.body.sessions[1]).toMatchObject({
      title: "Billing questions",
      turnCount: 0,
      lastQuery: null,
    });
  });

  it("pins another saved version when asked, and refuses unknown agents and versions", async () => {
    const pinned = await create({ agentId: "support-triage", agentVersion: 1 });
    expect((await server.request(`/api/sessions/${pinned.body.sessionId}`)).body.agentVersion).toBe(1);
    expect((await create({ agentId: "no-such-agent" })).status).toBe(404);
    const noVersion = await create({ agentId: "support-triage", agentVersion: 999 });
    expect(noVersion.status).toBe(404);
    expect(noVersion.body.message).toMatch(/no version 999/);
  });

  it("answers bad input with a 4xx that says what to fix", async () => {
    expect((await create({ agentId: "support-triage", title: "x".repeat(201) })).status).toBe(400);
    expect((await create({ agentId: "support-triage", extra: 1 })).status).toBe(400);
    expect((await server.request("/api/sessions/not-a-session")).status).toBe(400);
    const unknown = await server.request("/api/sessions/ses_0000000000000000");
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("not_found");
    expect((await server.request("/api/sessions?limit=0")).status).toBe(400);
  });

  it("decides a pending merge once: 202, then 409 already_answered; an unknown merge is 404", async () => {
    const { sessionId } = (await create({ agentId: "support-triage" })).body;
    await holdMerge(sessionId, "merge_1");
    expect((await server.request(`/api/sessions/${sessionId}`)).body.status).toBe("waiting");
    const decide = (mergeId: string, json: unknown) =>
      server.request(`/api/sessions/${sessionId}/merges/${mergeId}`, { method: "POST", json });
    expect((await decide("merge_1", { decision: "edit" })).status).toBe(400);
    const [one, two] = await Promise.all([
      decide("merge_1", { decision: "approve", note: "looks right" }),
      decide("merge_1", { decision: "reject" }),
    ]);
    expect([one.status, two.status].sort()).toEqual([202, 409]);
    const conflict = one.status === 409 ? one : two;
    expect(conflict.body.details.reason).toBe("already_answered");
    expect((await decide("merge_9", { decision: "approve" })).status).toBe(404);
    const events = (await server.request(`/api/sessions/${sessionId}/events?after=1`)).body.events;
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ seq: 2, type: "merge_decided", data: { mergeId: "merge_1" } });
    const record = (await server.request(`/api/sessions/${sessionId}`)).body;
    expect(record).toMatchObject({ status: "idle", pendingMerges: [], lastSeq: 2 });
    // the record keeps the decision that won, its note, and when it was made
    const won = one.status === 202 ? { decision: "approve", note: "looks right" } : { decision: "reject" };
    expect(record.decidedMerges).toEqual([
      expect.objectContaining({ mergeId: "merge_1", ...won, decidedAt: events[0].ts }),
    ]);
  });

  it("closes a session with DELETE, once", async () => {
    const { sessionId } = (await create({ agentId: "support-triage" })).body;
    const closed = await server.request(`/api/sessions/${sessionId}`, { method: "DELETE" });
    expect(closed.status).toBe(200);
    expect(closed.body.status).toBe("closed");
    await server.request(`/api/sessions/${sessionId}`, { method: "DELETE" });
    const events = (await server.request(`/api/sessions/${sessionId}/events`)).body.events;
    expect(events.map((event: { type: string }) => event.type)).toEqual(["session_closed"]);
  });
});
