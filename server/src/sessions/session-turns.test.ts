import { fixtureReply, startOpenAiFixtureServer, type OpenAiFixtureServer } from "@waddle/planner/testing";
import { AgentSpec, type SessionRecord } from "@waddle/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";
import { waitForRun } from "../testing/wait-for-run.js";

let server: TestServer;
let fixture: OpenAiFixtureServer;

const slow = AgentSpec.parse({
  version: 1,
  id: "slow-helper",
  name: "Slow helper",
  tools: [
    { name: "lookup", desc: "Looks up", impl: { kind: "mock", output: { ok: true }, latencyMs: 60_000 } },
  ],
});

beforeAll(async () => {
  fixture = await startOpenAiFixtureServer({
    fallback: (request) => {
      const messages = (request.body as { messages: { content: string }[] }).messages;
      const user = messages.map((message) => message.content).join("\n");
      return fixtureReply.finalAnswer(
        `Heard: ${user.includes(`"assistant":"Heard: fresh"`) ? "earlier turn seen" : "fresh"}`,
      );
    },
  });
  server = await startTestServer({
    env: { OPENAI_API_KEY: "sk-fixture-key-0123456789" },
    llmAllow: [new URL(fixture.baseURL).origin],
  });
  const chatty = AgentSpec.parse({
    version: 1,
    id: "chatty",
    name: "Chatty",
    llm: { provider: "openai", model: "fixture-model", baseUrl: fixture.baseURL },
    tools: [{ name: "lookup", desc: "Looks up", impl: { kind: "mock", output: { ok: true } } }],
  });
  const approver = AgentSpec.parse({
    version: 1,
    id: "approver",
    name: "Approver",
    tools: [
      {
        name: "refund",
        desc: "Refunds the charge",
        sideEffects: "write",
        requiresApproval: true,
        impl: { kind: "mock", output: { refunded: true } },
      },
    ],
  });
  for (const spec of [slow, chatty, approver]) {
    expect((await server.request("/api/agents", { method: "POST", json: spec })).status).toBe(201);
  }
});
afterAll(async () => {
  await server.stop();
  await fixture.close();
});

const newSession = async (agentId: string): Promise<string> =>
  (await server.request("/api/sessions", { method: "POST", json: { agentId } })).body.sessionId;
const turn = (json: Record<string, unknown>) => server.request("/api/runs", { method: "POST", json });
const getSession = async (id: string): Promise<SessionRecord> =>
  (await server.request(`/api/sessions/${id}`)).body;

/**
 * The session once its last turn's run has ended: read then, the session is brought up to the run
 * (`SessionTurns.reconcile`), whether or not its own update has landed yet.
 */
async function waitForIdle(id: string): Promise<SessionRecord> {
  const last = (await getSession(id)).turns.at(-1);
  if (last) await waitForRun(server, last.runId);
  return getSession(id);
}

describe("turns: POST /api/runs with a sessionId", () => {
  it("runs each turn as a run of the session, and the next turn's model sees the earlier ones", async () => {
    const sessionId = await newSession("chatty");
    const first = await turn({ sessionId, query: "My first question about invoices" });
    expect(first.status).toBe(202);
    expect(first.body).toEqual({ runId: expect.stringMatching(/^run_/), sessionId, turn: 1 });
    const run = await waitForRun(server, first.body.runId);
    expect(run).toMatchObject({ status: "finished", sessionId, turn: 1, kind: "run" });
    const afterOne = await waitForIdle(sessionId);
    expect(afterOne).toMatchObject({
      title: "My first question about invoices",
      status: "idle",
      turns: [{ runId: first.body.runId, turn: 1, status: "finished", answer: "Heard: fresh" }],
    });
    expect(afterOne.usage.llmCalls).toBeGreaterThan(0);

    const second = await turn({ sessionId, agentId: "chatty", query: "And a follow-up" });
    expect(second.body.turn).toBe(2);
    await waitForRun(server, second.body.runId);
    const afterTwo = await waitForIdle(sessionId);
    expect(afterTwo.turns.map((entry) => [entry.turn, entry.answer])).toEqual([
      [1, "Heard: fresh"],
      [2, "Heard: earlier turn seen"],
    ]);
    // The stored query is the person's message; the conversation reached the model beside it.
    expect((await server.request(`/api/runs/${second.body.runId}`)).body.query).toBe("And a follow-up");
    const log = (await server.request(`/api/sessions/${sessionId}/events`)).body.events;
    expect(log.map((event: { type: string }) => event.type)).toEqual([
      "turn_started",
      "turn_ended",
      "turn_started",
      "turn_ended",
    ]);
  });

  it("keeps a structured turn's answer object beside its text", async () => {
    const structured = AgentSpec.parse({
      version: 1,
      id: "structured-turns",
      name: "Structured turns",
      answerSchema: {
        type: "object",
        properties: { topic: { type: "string" }, urgent: { type: "boolean" } },
        required: ["topic", "urgent"],
      },
      tools: [{ name: "lookup", desc: "Looks up", impl: { kind: "mock", output: { topic: "invoices" } } }],
    });
    expect((await server.request("/api/agents", { method: "POST", json: structured })).status).toBe(201);
    const sessionId = await newSession("structured-turns");
    const first = await turn({ sessionId, query: "Classify my invoice question" });
    expect((await waitForRun(server, first.body.runId)).status).toBe("finished");
    const [logged] = (await waitForIdle(sessionId)).turns;
    expect(logged?.data).toEqual({ topic: expect.any(String), urgent: expect.any(Boolean) });
    expect(JSON.parse(logged?.answer ?? "null")).toEqual(logged?.data);
  });

  it("refuses a turn while one runs (409 turn_in_progress), and after a close (409 session_closed)", async () => {
    const sessionId = await newSession("slow-helper");
    const running = await turn({ sessionId, query: "Look it up slowly" });
    expect(running.status).toBe(202);
    const busy = await turn({ sessionId, query: "Are you done?" });
    expect(busy.status).toBe(409);
    expect(busy.body.details.reason).toBe("turn_in_progress");
    const closed = await server.request(`/api/sessions/${sessionId}`, { method: "DELETE" });
    expect(closed.body.status).toBe("closed");
    expect((await waitForRun(server, running.body.runId)).status).toBe("cancelled");
    const late = await turn({ sessionId, query: "Hello again" });
    expect(late.status).toBe(409);
    expect(late.body.details.reason).toBe("session_closed");
    const record = await getSession(sessionId);
    expect(record.turns).toMatchObject([{ status: "cancelled", answer: null }]);
  });

  it("waits while its turn waits at a pause, and goes on once it is answered", async () => {
    const sessionId = await newSession("approver");
    const started = await turn({ sessionId, query: "Refund my duplicate charge" });
    const paused = await waitForRun(server, started.body.runId, new Set(["paused"]));
    const record = await getSession(sessionId);
    expect(record).toMatchObject({ status: "waiting", turns: [{ status: "paused" }] });
    const busy = await turn({ sessionId, query: "Hello?" });
    expect(busy.status).toBe(409);
    expect(busy.body.message).toMatch(/waiting at a pause/);
    const resumed = await server.request(`/api/runs/${started.body.runId}/resume`, {
      method: "POST",
      json: { resumeToken: paused.pause!.resumeToken, decision: "approve" },
    });
    expect(resumed.status).toBe(202);
    await waitForRun(server, started.body.runId);
    const done = await waitForIdle(sessionId);
    expect(done.turns[0]).toMatchObject({ status: "finished" });
    const types = (await server.request(`/api/sessions/${sessionId}/events`)).body.events.map(
      (event: { type: string; data: { status?: string } }) =>
        `${event.type}${event.data.status ? `:${event.data.status}` : ""}`,
    );
    // After the answer the run is queued, then running: whichever status the log heard first.
    expect(types).toEqual([
      "turn_started",
      "turn_updated:paused",
      expect.stringMatching(/^turn_updated:(queued|running)$/),
      "turn_ended:finished",
    ]);
  });

  it("answers a turn for another agent 422, an unknown session 404, and a bad session id 400", async () => {
    const sessionId = await newSession("chatty");
    const other = await turn({ sessionId, agentId: "support-triage", query: "hi" });
    expect(other.status).toBe(422);
    expect(other.body.code).toBe("session_agent_mismatch");
    expect((await turn({ sessionId: "ses_0000000000000000", query: "hi" })).status).toBe(404);
    expect((await turn({ sessionId: "nope", query: "hi" })).status).toBe(400);
    expect((await turn({ sessionId, query: "" })).status).toBe(400);
    expect((await getSession(sessionId)).turns).toEqual([]);
  });
});

describe("turns: POST /api/sessions/:id/turns", () => {
  const next = (sessionId: string, json: unknown) =>
    server.request(`/api/sessions/${sessionId}/turns`, { method: "POST", json });

  it("starts the next turn: 202 {runId, sessionId, turn}, the run in Location; the alias goes on counting", async () => {
    const sessionId = await newSession("chatty");
    const first = await next(sessionId, {
      query: "My first question about invoices",
      context: { apiKey: "k" },
    });
    expect(first.status).toBe(202);
    expect(first.body).toEqual({ runId: expect.stringMatching(/^run_/), sessionId, turn: 1 });
    expect(first.headers.get("location")).toBe(`/api/runs/${first.body.runId}`);
    // The context goes to the tools only: the run keeps its keys, never its values.
    const run = await waitForRun(server, first.body.runId);
    expect(run).toMatchObject({ status: "finished", sessionId, turn: 1, toolContextKeys: ["apiKey"] });
    expect(JSON.stringify(await server.store.listEvents(run.id))).not.toContain('"k"');

    const second = await turn({ sessionId, query: "And a follow-up" });
    expect(second.status).toBe(202);
    expect(second.body).toEqual({ runId: expect.stringMatching(/^run_/), sessionId, turn: 2 });
    await waitForRun(server, second.body.runId);
    const third = await next(sessionId, { query: "One more" });
    expect(third.body.turn).toBe(3);
    await waitForRun(server, third.body.runId);
    // Read after the runs ended, the session is brought up to them.
    const record = await getSession(sessionId);
    expect(record.turns.map((entry) => [entry.turn, entry.runId, entry.answer])).toEqual([
      [1, first.body.runId, "Heard: fresh"],
      [2, second.body.runId, "Heard: earlier turn seen"],
      [3, third.body.runId, "Heard: earlier turn seen"],
    ]);
  });

  it("refuses a turn while one runs, whichever route asks (409 turn_in_progress), and after a close", async () => {
    const sessionId = await newSession("slow-helper");
    const running = await next(sessionId, { query: "Look it up slowly" });
    expect(running.status).toBe(202);
    for (const busy of [
      await next(sessionId, { query: "Done?" }),
      await turn({ sessionId, query: "Done?" }),
    ]) {
      expect(busy.status).toBe(409);
      expect(busy.body).toMatchObject({ code: "invalid_state", details: { reason: "turn_in_progress" } });
      expect(busy.body.message).toMatch(/still running/);
    }
    expect((await server.request(`/api/sessions/${sessionId}`, { method: "DELETE" })).status).toBe(200);
    expect((await waitForRun(server, running.body.runId)).status).toBe("cancelled");
    const late = await next(sessionId, { query: "Hello again" });
    expect(late.status).toBe(409);
    expect(late.body.details.reason).toBe("session_closed");
    expect(late.body.message).toMatch(/is closed: start a new one/);
    expect((await getSession(sessionId)).turns).toHaveLength(1);
  });

  it("answers a bad body or session id 400 and an unknown session 404, starting nothing", async () => {
    const sessionId = await newSession("chatty");
    for (const body of [
      {},
      { query: "" },
      { query: "hi", agentId: "chatty" },
      { query: "hi", context: "k" },
    ]) {
      const refused = await next(sessionId, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.code).toBe("validation_failed");
    }
    expect((await next("not-a-session", { query: "hi" })).status).toBe(400);
    const unknown = await next("ses_0000000000000000", { query: "hi" });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("not_found");
    expect((await getSession(sessionId)).turns).toEqual([]);
  });
});
