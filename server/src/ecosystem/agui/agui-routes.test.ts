import { randomUUID } from "node:crypto";
import { HttpAgent, type AgentSubscriber } from "@ag-ui/client";
import type { BaseEvent, Interrupt } from "@ag-ui/core";
import { EventSchema } from "@ag-ui/core/schemas";
import { fixtureReply, startOpenAiFixtureServer, type OpenAiFixtureServer } from "@waddle/planner/testing";
import { AgentSpec } from "@waddle/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../testing/start-test-server.js";

let fixture: OpenAiFixtureServer;
let server: TestServer;

const QUERY = "Refund my duplicate charge";
const ANSWER = "Refunded the duplicate charge on A-17.";
const TODOS = [
  { id: "1", content: "Find the order", status: "in_progress" },
  { id: "2", content: "Refund it", status: "pending" },
];

beforeAll(async () => {
  fixture = await startOpenAiFixtureServer();
  server = await startTestServer({
    env: { OPENAI_API_KEY: "sk-fixture-key-0123456789" },
    llmAllow: [new URL(fixture.baseURL).origin],
  });
  const spec = AgentSpec.parse({
    version: 1,
    id: "helper",
    name: "Helper",
    llm: { provider: "openai", model: "fixture-model", baseUrl: fixture.baseURL },
    planner: { todos: { enabled: true } },
    tools: [
      {
        name: "lookup",
        desc: "Finds an order",
        impl: { kind: "mock", output: { order: "A-17", charged: 2 } },
      },
      {
        name: "refund",
        desc: "Refunds a charge",
        sideEffects: "write",
        requiresApproval: true,
        impl: { kind: "mock", output: { refunded: true } },
      },
    ],
  });
  expect((await server.request("/api/agents", { method: "POST", json: spec })).status).toBe(201);
});
afterAll(async () => {
  await server.stop();
  await fixture.close();
});

/** Runs the agent once through `@ag-ui/client`, keeping every event its subscriber sees, in order. */
async function run(agent: HttpAgent, parameters: Parameters<HttpAgent["runAgent"]>[0] = {}) {
  const events: BaseEvent[] = [];
  let interrupts: Interrupt[] = [];
  const subscriber: AgentSubscriber = {
    onEvent: ({ event }) => {
      events.push(event);
    },
    onRunFinishedEvent: (params) => {
      if (params.outcome === "interrupt") interrupts = params.interrupts;
    },
  };
  const result = await agent.runAgent(parameters, subscriber);
  // Every event fits AG-UI's own schema (the client checks too, after its middleware).
  for (const event of events) expect(EventSchema.safeParse(event).error).toBeUndefined();
  return { events, types: events.map((event) => event.type), interrupts, result };
}

const newAgent = (path = "helper", headers: Record<string, string> = {}) =>
  new HttpAgent({ url: `${server.url}/agui/${path}`, threadId: randomUUID(), headers });

const userMessage = (content: string) => ({ id: randomUUID(), role: "user" as const, content });
const waddleOf = (event: BaseEvent | undefined) =>
  (
    event?.metadata as {
      waddle: { runId: string; sessionId: string; agentVersion: number; channel?: string };
    }
  ).waddle;

describe("POST /agui/:id with @ag-ui/client's HttpAgent", () => {
  it("streams a run with thinking, todos and tools to its interrupt, then answers it on the next run", async () => {
    fixture.enqueue(
      fixtureReply.json(
        { next_node: "write_todos", args: { todos: TODOS } },
        { reasoning: "Plan the refund first.", chunkSize: 16 },
      ),
    );
    fixture.enqueue(
      fixtureReply.json(
        { next_node: "lookup", args: { order: "A-17" } },
        { reasoning: "Look the order up.", chunkSize: 16 },
      ),
    );
    fixture.enqueue(fixtureReply.json({ next_node: "refund", args: { order: "A-17" } }));
    const agent = newAgent();
    agent.addMessage(userMessage(QUERY));

    const paused = await run(agent);
    expect(paused.types).toEqual([
      "RUN_STARTED",
      "STATE_SNAPSHOT",
      // step 1: the model thinks, then writes its todos
      "STEP_STARTED",
      "REASONING_START",
      "REASONING_MESSAGE_START",
      "REASONING_MESSAGE_CONTENT",
      "REASONING_MESSAGE_CONTENT",
      "REASONING_MESSAGE_END",
      "REASONING_END",
      "STATE_DELTA",
      "STEP_FINISHED",
      // step 2: it thinks, then looks the order up
      "STEP_STARTED",
      "REASONING_START",
      "REASONING_MESSAGE_START",
      "REASONING_MESSAGE_CONTENT",
      "REASONING_MESSAGE_CONTENT",
      "REASONING_MESSAGE_END",
      "REASONING_END",
      "TOOL_CALL_START",
      "TOOL_CALL_ARGS",
      "TOOL_CALL_END",
      "TOOL_CALL_RESULT",
      "STEP_FINISHED",
      // step 3: it asks for the refund, which waits for approval
      "STEP_STARTED",
      "STEP_FINISHED",
      "RUN_FINISHED",
    ]);
    expect(paused.events[0]).toMatchObject({ threadId: agent.threadId, protocolVersion: "1.0" });
    const { runId, sessionId } = waddleOf(paused.events[0]);
    const stored = await server.store.getRun(runId);
    expect(stored).toMatchObject({ status: "paused", sessionId, query: QUERY, agentId: "helper" });
    // The pause is AG-UI's interrupt, answered by its id (the pause's resume token).
    expect(paused.interrupts).toEqual([
      expect.objectContaining({
        id: stored!.pause!.resumeToken,
        reason: "approval_required",
        message: expect.stringContaining("refund"),
        metadata: { waddle: expect.objectContaining({ runId, tool: "refund" }) },
      }),
    ]);
    expect(agent.pendingInterrupts.map((interrupt) => interrupt.id)).toEqual([stored!.pause!.resumeToken]);
    expect(agent.state).toEqual({ todos: TODOS });
    const thought = paused.events.filter((event) => event.type === "REASONING_MESSAGE_CONTENT");
    expect(thought.map((event) => event["delta"]).join("")).toBe("Plan the refund first.Look the order up.");
    const lookup = paused.events.find((event) => event.type === "TOOL_CALL_START");
    expect(lookup).toMatchObject({ toolCallName: "lookup" });
    expect(paused.events.find((event) => event.type === "TOOL_CALL_RESULT")).toMatchObject({
      toolCallId: lookup!["toolCallId"],
      content: JSON.stringify({ order: "A-17", charged: 2 }),
    });

    // A new message on a thread that waits at an interrupt is refused, saying how to answer it.
    const busy = await fetch(`${server.url}/agui/helper`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        threadId: agent.threadId,
        runId: randomUUID(),
        messages: [userMessage("Hello?")],
      }),
    });
    expect(busy.status).toBe(409);
    expect(((await busy.json()) as { message: string }).message).toContain(stored!.pause!.resumeToken);

    fixture.enqueue(fixtureReply.finalAnswer(ANSWER, { reasoning: "Done.", chunkSize: 16 }));
    const resumed = await run(agent, {
      resume: [
        {
          interruptId: paused.interrupts[0]!.id,
          status: "resolved",
          payload: { decision: "approve", note: "Fine by me" },
        },
      ],
    });
    const textDeltas = resumed.events.filter((event) => event.type === "TEXT_MESSAGE_CONTENT");
    expect(resumed.types).toEqual([
      "RUN_STARTED",
      "STATE_SNAPSHOT",
      // the approved refund runs
      "STEP_STARTED",
      "TOOL_CALL_START",
      "TOOL_CALL_ARGS",
      "TOOL_CALL_END",
      "TOOL_CALL_RESULT",
      "STEP_FINISHED",
      // the model thinks, then streams its answer
      "STEP_STARTED",
      "REASONING_START",
      "REASONING_MESSAGE_START",
      "REASONING_MESSAGE_CONTENT",
      "REASONING_MESSAGE_END",
      "REASONING_END",
      "TEXT_MESSAGE_START",
      ...textDeltas.map(() => "TEXT_MESSAGE_CONTENT"),
      "TEXT_MESSAGE_END",
      "STEP_FINISHED",
      "RUN_FINISHED",
    ]);
    // The answer streamed in pieces as the model wrote it, and the client's messages end with it.
    expect(textDeltas.length).toBeGreaterThan(1);
    expect(textDeltas.map((event) => event["delta"]).join("")).toBe(ANSWER);
    expect(agent.messages.at(-1)).toMatchObject({ role: "assistant", content: ANSWER });
    expect(agent.pendingInterrupts).toEqual([]);
    expect(resumed.result.result).toEqual({ answer: ANSWER });
    expect(resumed.events.at(-1)).toMatchObject({ outcome: { type: "success" } });
    expect(waddleOf(resumed.events[0])).toMatchObject({ runId, sessionId });
    // The client's state still holds the todos the paused run wrote.
    expect(resumed.events[1]).toMatchObject({ snapshot: { todos: TODOS } });
    const finished = await server.store.getRun(runId);
    expect(finished).toMatchObject({ status: "finished", decisions: expect.anything() });
    const decided = (await server.store.listEvents(runId)).find((event) => event.type === "resumed");
    expect(decided?.data).toMatchObject({ decision: "approve", note: "Fine by me" });

    // The thread's next run is the session's next turn: the model sees the first one.
    fixture.enqueue(fixtureReply.finalAnswer("It was order A-17."));
    agent.addMessage(userMessage("Which order was that?"));
    const second = await run(agent);
    expect(second.types.at(-1)).toBe("RUN_FINISHED");
    expect(waddleOf(second.events[0]).sessionId).toBe(sessionId);
    const prompt = JSON.stringify(fixture.completionRequests.at(-1)!.body);
    expect(prompt).toContain(ANSWER);
    expect(prompt).toContain(QUERY);
    const session = await server.store.sessions.get(sessionId);
    expect(session?.turns.map((turn) => [turn.turn, turn.query])).toEqual([
      [1, QUERY],
      [2, "Which order was that?"],
    ]);
  });

  it("rejects the pause when the interrupt is cancelled", async () => {
    fixture.enqueue(fixtureReply.json({ next_node: "refund", args: { order: "B-2" } }));
    const agent = newAgent();
    agent.addMessage(userMessage("Refund order B-2"));
    const paused = await run(agent);
    expect(paused.interrupts).toHaveLength(1);
    fixture.enqueue(fixtureReply.finalAnswer("I did not refund it."));
    const resumed = await run(agent, {
      resume: [{ interruptId: paused.interrupts[0]!.id, status: "cancelled" }],
    });
    expect(resumed.types.at(-1)).toBe("RUN_FINISHED");
    // The tool never ran: no tool call in the resumed run.
    expect(resumed.types).not.toContain("TOOL_CALL_START");
    const { runId } = waddleOf(paused.events[0]);
    const decided = (await server.store.listEvents(runId)).find((event) => event.type === "resumed");
    expect(decided?.data).toMatchObject({ decision: "reject" });
  });

  it("runs the version a channel serves: helper@staging", async () => {
    const released = await server.request("/api/agents/helper/releases", {
      method: "POST",
      json: { version: 1, channel: "staging" },
    });
    expect(released.status, released.text).toBe(201);
    const latest = (await server.request("/api/agents/helper")).body;
    const saved = await server.request("/api/agents/helper", {
      method: "PUT",
      json: { spec: { ...latest.spec, description: "A newer save" }, baseVersion: latest.version },
    });
    expect(saved.status).toBe(200);
    fixture.enqueue(fixtureReply.finalAnswer("Staged."));
    const staged = newAgent("helper@staging");
    staged.addMessage(userMessage("Hello"));
    const events = (await run(staged)).events;
    expect(waddleOf(events[0])).toMatchObject({ agentVersion: 1, channel: "staging" });
    expect(events.at(-1)).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "success" } });
    const run1 = await server.store.getRun(waddleOf(events[0]).runId);
    expect(run1?.agentVersion).toBe(1);
    // Without a channel: the latest save (no production release yet).
    fixture.enqueue(fixtureReply.finalAnswer("Latest."));
    const plain = newAgent("helper");
    plain.addMessage(userMessage("Hello"));
    expect(waddleOf((await run(plain)).events[0]).agentVersion).toBe(saved.body.version);
  });

  it("answers in AG-UI's protobuf framing when Accept asks for it", async () => {
    fixture.enqueue(fixtureReply.finalAnswer("Framed."));
    const response = await fetch(`${server.url}/agui/helper`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/vnd.ag-ui.event+proto" },
      body: JSON.stringify({ threadId: randomUUID(), runId: "r1", messages: [userMessage("Hi")] }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/vnd.ag-ui.event+proto");
    const bytes = new Uint8Array(await response.arrayBuffer());
    // Length-prefixed frames (4 bytes, big-endian), back to back to the end.
    let frames = 0;
    for (let offset = 0; offset < bytes.length; frames++) {
      offset += 4 + new DataView(bytes.buffer, offset, 4).getUint32(0, false);
      expect(offset).toBeLessThanOrEqual(bytes.length);
    }
    expect(frames).toBeGreaterThan(3);
  });
});

describe("POST /agui/:id refuses what it cannot run", () => {
  const post = (path: string, body: unknown) =>
    server.request(`/agui/${path}`, { method: "POST", json: body });
  const valid = () => ({ threadId: randomUUID(), runId: randomUUID(), messages: [userMessage("Hi")] });

  it("is 400 with the issues for a body that is no RunAgentInput", async () => {
    const bad = await post("helper", { threadId: 7, messages: [{ id: "m1", role: "robot" }] });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: "validation_failed" });
    const paths = bad.body.details.issues.map((issue: { path: string }) => issue.path);
    expect(paths).toEqual(expect.arrayContaining(["$.threadId", "$.runId", "$.messages[0].role"]));
    const noUser = await post("helper", {
      ...valid(),
      messages: [{ id: "a", role: "assistant", content: "Hi" }],
    });
    expect(noUser.status).toBe(400);
    expect(noUser.body.message).toContain("messages");
    const badAnswer = await post("helper", {
      ...valid(),
      resume: [{ interruptId: "x", status: "resolved", payload: { decision: "maybe" } }],
    });
    expect(badAnswer.status).toBe(400);
    expect(badAnswer.body.details.issues[0].path).toBe("$.resume[0].payload");
    const notJson = await server.request("/agui/helper", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{not json",
    });
    expect(notJson.status).toBe(400);
  });

  it("is 404 for an unknown agent, and for a channel the agent does not have, naming it", async () => {
    const unknown = await post("no-such-agent", valid());
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toContain("no-such-agent");
    const channel = await post("helper@canary", valid());
    expect(channel.status).toBe(404);
    expect(channel.body.message).toContain('"canary"');
  });

  it("is 409 for an answer on a thread that waits for nothing", async () => {
    const answer = await post("helper", {
      ...valid(),
      resume: [{ interruptId: "nothing", status: "resolved" }],
    });
    expect(answer.status).toBe(409);
    expect(answer.body.details.reason).toBe("not_paused");
  });
});
