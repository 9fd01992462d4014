import { randomUUID } from "node:crypto";
import { HttpAgent, type AgentSubscriber } from "@ag-ui/client";
import type { BaseEvent } from "@ag-ui/core";
import { fixtureReply, startOpenAiFixtureServer, type OpenAiFixtureServer } from "@waddle/planner/testing";
import { AgentSpec, type PublicChat, type RunEvent } from "@waddle/protocol";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publishAgent, TestVisitor } from "../testing/public-chat-test-kit.js";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";
import { waitForRun } from "../testing/wait-for-run.js";

// An output guard holds the answer back from every stream until it has passed (issue 35): each surface is
// run on an agent without guards (its answer streams in pieces, so each test can tell), one whose answer
// passes its guard (it arrives whole, once checked) and one whose answer is blocked (not even a piece).

const KEY = "fixture-key-held-answers-3";
const PASSING = "Order A-1 shipped on Monday and arrives on Thursday.";
const BLOCKED = "Order A-1 is part of the lawsuit against the carrier.";
const BLOCKED_WORDS = "the lawsuit against";

let fixture: OpenAiFixtureServer;
let server: TestServer;
let openai: OpenAI;
let chat: PublicChat;
/** Every event of every run as the hub publishes it: what the socket gateway relays to the run view. */
const live: RunEvent[] = [];

const spec = (id: string, guarded: boolean) =>
  AgentSpec.parse({
    version: 1,
    id,
    name: id,
    llm: { provider: "openai", model: "house-model" },
    tools: [{ name: "lookup", desc: "Looks an order up", impl: { kind: "mock", output: { ok: true } } }],
    guards: guarded
      ? [
          {
            name: "no-legal",
            on: "output",
            check: { kind: "deny_words", words: ["lawsuit"] },
            action: "block",
          },
        ]
      : [],
  });

beforeAll(async () => {
  fixture = await startOpenAiFixtureServer({ apiKey: KEY, models: ["house-model"] });
  server = await startTestServer({
    env: { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: fixture.baseURL },
    exampleAgentsDir: null,
  });
  for (const each of [spec("open-desk", false), spec("checked-desk", true)]) {
    expect((await server.request("/api/agents", { method: "POST", json: each })).status).toBe(201);
  }
  chat = await publishAgent({ server, headers: {}, spec: spec("public-desk", true) });
  server.hub.onEvent((event) => live.push(event));
  openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "unused-without-a-token" });
});
afterAll(async () => {
  await server.stop();
  await fixture.close();
});

/** The model's next reply: the answer, streamed 8 characters at a time. */
const answerWith = (text: string) => fixture.enqueue(fixtureReply.finalAnswer(text, { chunkSize: 8 }));

const liveOf = (runId: string) => live.filter((event) => event.runId === runId);
const answerChunks = (events: readonly RunEvent[]) =>
  events.filter(
    (event) => event.type === "llm_stream_chunk" && event.data.channel === "answer" && !event.data.done,
  );
const indexOf = (events: readonly RunEvent[], type: RunEvent["type"]) =>
  events.findIndex((event) => event.type === type);

async function startRun(agentId: string): Promise<string> {
  const started = await server.request("/api/runs", {
    method: "POST",
    json: { agentId, query: "Where is A-1?" },
  });
  expect(started.status, started.text).toBe(202);
  const runId = started.body.runId as string;
  await waitForRun(server, runId);
  return runId;
}

describe("the run view (the events the socket relays)", () => {
  it("streams an unguarded answer, but holds a guarded one: guard_checking, the verdict, then the answer whole", async () => {
    answerWith(PASSING);
    expect(answerChunks(liveOf(await startRun("open-desk"))).length).toBeGreaterThan(2);

    answerWith(PASSING);
    const events = liveOf(await startRun("checked-desk"));
    expect(answerChunks(events)).toEqual([]);
    const checking = indexOf(events, "guard_checking");
    const verdict = indexOf(events, "guard_verdict");
    const finished = indexOf(events, "run_finished");
    expect(checking).toBeGreaterThan(-1);
    expect(checking).toBeLessThan(verdict);
    expect(verdict).toBeLessThan(finished);
    expect(events[checking]?.data).toEqual({ on: "output", guards: ["no-legal"] });
    expect(events[finished]?.data).toMatchObject({ payload: { answer: PASSING } });
  });

  it("never shows a blocked answer, not in pieces, not in the action, not in the failure", async () => {
    answerWith(BLOCKED);
    const runId = await startRun("checked-desk");
    const events = liveOf(runId);
    expect(answerChunks(events)).toEqual([]);
    expect(events.at(-1)).toMatchObject({ type: "run_failed", data: { error: { code: "guard_blocked" } } });
    expect(JSON.stringify(events)).not.toContain(BLOCKED_WORDS);
    const stored = (await server.request(`/api/runs/${runId}/events`)).body.events as RunEvent[];
    expect(JSON.stringify(stored)).not.toContain(BLOCKED_WORDS);
    expect(JSON.stringify(await server.store.getRun(runId))).not.toContain(BLOCKED_WORDS);
  });
});

describe("a chat session's turns", () => {
  it("records the checked answer as the turn's, and a blocked one as a failed turn without its text", async () => {
    const created = await server.request("/api/sessions", {
      method: "POST",
      json: { agentId: "checked-desk" },
    });
    expect(created.status, created.text).toBe(201);
    const sessionId = created.body.sessionId as string;
    const turn = async (answer: string) => {
      answerWith(answer);
      const started = await server.request(`/api/sessions/${sessionId}/turns`, {
        method: "POST",
        json: { query: "Where is A-1?" },
      });
      expect(started.status, started.text).toBe(202);
      const runId = started.body.runId as string;
      await waitForRun(server, runId);
      expect(answerChunks(liveOf(runId))).toEqual([]);
      return runId;
    };
    await turn(PASSING);
    await turn(BLOCKED);
    const session = (await server.request(`/api/sessions/${sessionId}`)).body;
    const ended = (session.turns as { status: string; answer?: string | null }[]).map(
      ({ status, answer }) => ({
        status,
        answer: answer ?? null,
      }),
    );
    expect(ended).toEqual([
      { status: "finished", answer: PASSING },
      { status: "failed", answer: null },
    ]);
    const log = (await server.request(`/api/sessions/${sessionId}/events`)).body.events;
    expect(JSON.stringify(log)).not.toContain(BLOCKED_WORDS);
  });
});

describe("/v1/chat/completions streaming", () => {
  async function stream(model: string) {
    const deltas: string[] = [];
    try {
      const chunks = await openai.chat.completions.create({
        model,
        messages: [{ role: "user", content: "Where is A-1?" }],
        stream: true,
      });
      for await (const chunk of chunks) {
        const content = chunk.choices[0]?.delta.content;
        if (content) deltas.push(content);
      }
      return { deltas, error: undefined };
    } catch (error) {
      return { deltas, error: error as InstanceType<typeof OpenAI.APIError> };
    }
  }

  it("sends a checked answer whole once it passed (an unguarded one in pieces), and a blocked one not at all", async () => {
    answerWith(PASSING);
    const open = await stream("open-desk");
    expect(open.deltas.length).toBeGreaterThan(2);
    expect(open.deltas.join("")).toBe(PASSING);

    answerWith(PASSING);
    const checked = await stream("checked-desk");
    expect(checked).toEqual({ deltas: [PASSING], error: undefined });

    answerWith(BLOCKED);
    const blocked = await stream("checked-desk");
    expect(blocked.deltas).toEqual([]);
    expect(blocked.error).toBeInstanceOf(OpenAI.APIError);
    expect(blocked.error?.message).toMatch(/guard/i);
    expect(blocked.error?.message).not.toContain(BLOCKED_WORDS);
  });
});

describe("AG-UI /agui/:agentId", () => {
  async function run(agentId: string) {
    const agent = new HttpAgent({ url: `${server.url}/agui/${agentId}`, threadId: randomUUID() });
    agent.addMessage({ id: randomUUID(), role: "user", content: "Where is A-1?" });
    const events: BaseEvent[] = [];
    const subscriber: AgentSubscriber = { onEvent: ({ event }) => void events.push(event) };
    const failure = await agent.runAgent({}, subscriber).then(
      () => undefined,
      (error: unknown) => error,
    );
    const text = events
      .filter((event) => event.type === "TEXT_MESSAGE_CONTENT")
      .map((event) => event["delta"]);
    return { events, text, failure };
  }

  it("sends a checked answer as one message once it passed, and a blocked one as RUN_ERROR with no text", async () => {
    answerWith(PASSING);
    expect((await run("open-desk")).text.length).toBeGreaterThan(2);

    answerWith(PASSING);
    const checked = await run("checked-desk");
    expect(checked.text).toEqual([PASSING]);

    answerWith(BLOCKED);
    const blocked = await run("checked-desk");
    expect(blocked.text).toEqual([]);
    expect(blocked.events.at(-1)).toMatchObject({ type: "RUN_ERROR" });
    expect(JSON.stringify(blocked.events)).not.toContain(BLOCKED_WORDS);
  });
});

describe("a public chat's SSE", () => {
  it("gives the visitor a checked answer whole once it passed, and a blocked one as an error without it", async () => {
    const visitor = new TestVisitor(server, chat);
    const sessionId = await visitor.startSession();

    answerWith(PASSING);
    const first = await visitor.stream(`/sessions/${sessionId}/turns`, "Where is A-1?");
    const passed = await first.until("done");
    expect(passed.filter((event) => event.type === "delta")).toEqual([]);
    expect(passed.find((event) => event.type === "answer")).toMatchObject({ answer: PASSING });

    answerWith(BLOCKED);
    const second = await visitor.stream(`/sessions/${sessionId}/turns`, "Where is A-1?");
    const blocked = await second.until("done");
    expect(blocked.filter((event) => event.type === "delta" || event.type === "answer")).toEqual([]);
    expect(blocked.find((event) => event.type === "error")).toMatchObject({ code: "turn_failed" });
    expect(second.raw).not.toContain(BLOCKED_WORDS);
  });
});
