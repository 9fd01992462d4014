import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { fixtureReply, startOpenAiFixtureServer, type OpenAiFixtureServer } from "@waddle/planner/testing";
import { AgentSpec, type SessionEvent, type SessionRecord, type SubscribeSessionAck } from "@waddle/protocol";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";
import { waitForRun } from "../testing/wait-for-run.js";

const serverDir = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const toolsDir = mkdtempSync(path.join(serverDir, ".tmp-task-gates-"));
// `gate` waits until the test opens it (in this process): a background task that finishes when told to.
writeFileSync(
  path.join(toolsDir, "gate.ts"),
  `import { z } from "zod";
   type Opener = (report: string) => void;
   const gates = ((globalThis as Record<string, unknown>).__waddleTaskGates ??= []) as Opener[];
   export const gate = { name: "gate", desc: "Writes the report (slowly)", args: z.object({}),
     out: z.object({ report: z.string() }),
     run: (_args: unknown, context: { signal: AbortSignal }) =>
       new Promise((resolve, reject) => {
         gates.push((report) => resolve({ report }));
         context.signal.addEventListener("abort", () => reject(new Error("gate aborted")), { once: true });
       }) };`,
);
afterAll(() => rmSync(toolsDir, { recursive: true, force: true }));

type Opener = (report: string) => void;
const gates = ((globalThis as Record<string, unknown>).__waddleTaskGates ??= []) as Opener[];

/** Opens the oldest gate a task is waiting at, once one is. */
async function openGate(report: string): Promise<void> {
  for (let tries = 0; tries < 1_000 && gates.length === 0; tries += 1) await sleep(10);
  const open = gates.shift();
  if (!open) throw new Error("no task is waiting at the gate");
  open(report);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An agent whose offline model spawns a sub-agent task when asked for background work. */
const backgrounder = (id: string, tasks: Record<string, unknown> = {}) =>
  AgentSpec.parse({
    version: 1,
    id,
    name: "Backgrounder",
    llm: { provider: "offline", model: "offline" },
    planner: { tasks: { enabled: true, spawnRequiresConfirmation: false, ...tasks } },
    tools: [{ name: "gate", desc: "Writes the report", impl: { kind: "module", ref: "gate" } }],
  });

async function until<T>(read: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
  for (let tries = 0; ; tries += 1) {
    const value = await read();
    if (check(value) || tries >= 1_000) return value;
    await sleep(10);
  }
}

function client(server: TestServer) {
  const getSession = async (id: string): Promise<SessionRecord> =>
    (await server.request(`/api/sessions/${id}`)).body;
  return {
    newSession: async (agentId: string): Promise<string> =>
      (await server.request("/api/sessions", { method: "POST", json: { agentId } })).body.sessionId,
    getSession,
    events: async (id: string): Promise<SessionEvent[]> =>
      (await server.request(`/api/sessions/${id}/events`)).body.events,
    /** A turn, run to its end. */
    turn: async (sessionId: string, query: string) => {
      const started = await server.request("/api/runs", { method: "POST", json: { sessionId, query } });
      expect(started.status).toBe(202);
      await waitForRun(server, started.body.runId);
      return until(
        () => getSession(sessionId),
        (record) => record.status !== "running",
      );
    },
  };
}

describe("background tasks outlive their turn (REST and socket.io)", () => {
  let server: TestServer;
  let fixture: OpenAiFixtureServer;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    fixture = await startOpenAiFixtureServer({
      fallback: (request) => {
        const messages = (request.body as { messages: { role: string; content: string }[] }).messages;
        const user = messages.find((message) => message.role === "user")?.content ?? "";
        const query = (JSON.parse(user) as { query: string }).query;
        if (query.startsWith("Research ")) return fixtureReply.finalAnswer(`Found ${query.slice(9)}.`);
        if (!query.startsWith("Batch")) return fixtureReply.finalAnswer("Noted.");
        const spawned = messages.filter((message) => message.content.includes('"taskId"')).length;
        const group = { group: query, merge_strategy: "HUMAN_GATED" };
        if (spawned === 0)
          return fixtureReply.json({
            next_node: "task.subagent",
            args: { name: "a", query: "Research a", ...group },
          });
        if (spawned === 1)
          return fixtureReply.json({
            next_node: "task.subagent",
            args: { name: "b", query: "Research b", ...group },
          });
        return fixtureReply.finalAnswer("Both started.");
      },
    });
    server = await startTestServer({
      toolsDir,
      env: { OPENAI_API_KEY: "sk-fixture-key-0123456789" },
      llmAllow: [new URL(fixture.baseURL).origin],
    });
    const batcher = AgentSpec.parse({
      version: 1,
      id: "batcher",
      name: "Batcher",
      llm: { provider: "openai", model: "fixture-model", baseUrl: fixture.baseURL },
      planner: { tasks: { enabled: true, spawnRequiresConfirmation: false } },
      tools: [{ name: "lookup", desc: "Looks up", impl: { kind: "mock", output: { ok: true } } }],
    });
    for (const spec of [backgrounder("backgrounder"), batcher]) {
      expect((await server.request("/api/agents", { method: "POST", json: spec })).status).toBe(201);
    }
  });
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await server.stop();
    await fixture.close();
  });

  it("a task spawned in turn 1 finishes after its turn answered, streams on the session, and reaches turn 2", async () => {
    const api = client(server);
    const sessionId = await api.newSession("backgrounder");
    const socket = connect(server.url, { transports: ["websocket"], reconnection: false });
    sockets.push(socket);
    await new Promise<void>((resolve) => socket.on("connect", () => resolve()));
    const streamed: SessionEvent[] = [];
    socket.on("session_event", (event: SessionEvent) => streamed.push(event));
    const ack = await new Promise<SubscribeSessionAck>((resolve) =>
      socket.emit("subscribe_session", { sessionId, afterSeq: 0 }, resolve),
    );
    expect(ack).toMatchObject({ ok: true });

    const first = await api.turn(sessionId, "Write the quarterly report in the background");
    expect(first.turns[0]).toMatchObject({
      status: "finished",
      answer: expect.stringContaining("in the background"),
    });
    // The turn has answered; its task goes on as a run of its own.
    expect(first.tasks).toEqual([
      expect.objectContaining({
        taskId: "task_1",
        name: expect.any(String),
        status: "running",
        turn: 1,
        parentRunId: first.turns[0]!.runId,
      }),
    ]);
    const taskRun = (await server.request(`/api/runs/${first.tasks[0]!.runId}`)).body;
    expect(taskRun).toMatchObject({ kind: "task", sessionId, parentRunId: first.turns[0]!.runId, turn: 1 });

    await openGate("Revenue grew 12%");
    const done = await until(
      () => api.getSession(sessionId),
      (record) => record.tasks[0]?.status === "completed",
    );
    expect(done.tasks[0]?.status).toBe("completed");
    expect(done.merged).toEqual([expect.objectContaining({ strategy: "APPEND", afterTurn: 1 })]);
    const log = await api.events(sessionId);
    const order = log.map((event) => event.type);
    expect(order.indexOf("turn_ended")).toBeLessThan(order.lastIndexOf("task_update"));
    expect(
      log.find((event) => event.type === "task_update" && event.data.status === "completed")?.data,
    ).toMatchObject({
      merged: true,
      runId: first.tasks[0]!.runId,
    });
    // Over socket.io: the same log, in order, as it happened.
    const streamedDone = await until(
      async () => streamed,
      (events) => events.some((event) => event.type === "task_update" && event.data.status === "completed"),
    );
    expect(streamedDone.map((event) => event.seq)).toEqual(
      log.slice(0, streamedDone.length).map((event) => event.seq),
    );

    const second = await api.turn(sessionId, "What did the report find?");
    expect(second.turns[1]?.answer).toContain("Revenue grew 12%");
  });

  it("the background-research example: turn 2 answers from the task turn 1 spawned (offline model)", async () => {
    const api = client(server);
    const sessionId = await api.newSession("background-research");
    const first = await api.turn(sessionId, "Research the market for electric bikes in the background");
    expect(first.turns[0]?.answer).toContain("in the background");
    expect(first.tasks).toHaveLength(1);
    await until(
      () => api.getSession(sessionId),
      (record) => record.tasks[0]?.status === "completed",
    );
    const second = await api.turn(sessionId, "What did the research find?");
    expect(second.turns[1]?.answer).toContain("demand is growing");
  });

  it("a HUMAN_GATED group waits as one batch: applied, then another rejected; 409 and 404 for the wrong answers", async () => {
    const api = client(server);
    const sessionId = await api.newSession("batcher");
    await api.turn(sessionId, "Batch one");
    const applied = await until(
      () => api.getSession(sessionId),
      (record) => record.pendingMerges.length > 0,
    );
    expect(applied.pendingMerges).toEqual([
      expect.objectContaining({
        mergeId: "merge_group_1",
        name: "Batch one",
        groupId: "group_1",
        strategy: "HUMAN_GATED",
      }),
    ]);
    expect(applied.pendingMerges[0]?.tasks.map((task) => [task.name, task.status])).toEqual([
      ["a", "completed"],
      ["b", "completed"],
    ]);
    expect(applied.status).toBe("waiting");
    const merge = (mergeId: string, json: unknown) =>
      server.request(`/api/sessions/${sessionId}/merges/${mergeId}`, { method: "POST", json });
    expect((await merge("merge_group_1", { decision: "approve", note: "looks right" })).status).toBe(202);
    const second = await merge("merge_group_1", { decision: "reject" });
    expect(second.status).toBe(409);
    expect(second.body.details.reason).toBe("already_answered");
    expect((await merge("merge_nope", { decision: "approve" })).status).toBe(404);

    await api.turn(sessionId, "Batch two");
    await until(
      () => api.getSession(sessionId),
      (record) => record.pendingMerges.length > 0,
    );
    expect((await merge("merge_group_2", { decision: "reject" })).status).toBe(202);
    const record = await api.getSession(sessionId);
    expect(record.merged?.map((merged) => [merged.name, merged.mergeId])).toEqual([
      ["Batch one", "merge_group_1"],
    ]);
    // The next turn sees the applied batch and not the rejected one.
    await api.turn(sessionId, "What came back?");
    const lastCall = fixture.completionRequests.at(-1)!.body as {
      messages: { role: string; content: string }[];
    };
    const user = lastCall.messages.find((message) => message.role === "user")!.content;
    const { context } = JSON.parse(user) as {
      context: {
        session: { merged_results: { name: string; tasks: { result: { keyFindings: string[] } }[] }[] };
      };
    };
    const merged = context.session.merged_results;
    expect(merged.map((item) => item.name)).toEqual(["Batch one"]);
    expect(merged[0]?.tasks.map((task) => task.result.keyFindings)).toEqual([["Found a."], ["Found b."]]);
  });

  it("cancels one task (202, then 409 task_ended), and closing a session cancels its tasks", async () => {
    const api = client(server);
    const sessionId = await api.newSession("backgrounder");
    const first = await api.turn(sessionId, "Draft the memo in the background");
    const taskId = first.tasks[0]!.taskId;
    const cancel = () =>
      server.request(`/api/sessions/${sessionId}/tasks/${taskId}/cancel`, { method: "POST" });
    const cancelled = await cancel();
    expect(cancelled.status).toBe(202);
    expect(cancelled.body).toMatchObject({ taskId, status: "cancelled" });
    expect((await cancel()).body.details.reason).toBe("task_ended");
    expect(
      (await server.request(`/api/sessions/${sessionId}/tasks/task_9/cancel`, { method: "POST" })).status,
    ).toBe(404);
    expect((await server.request(`/api/runs/${first.tasks[0]!.runId}`)).body.status).toBe("cancelled");

    await api.turn(sessionId, "Draft another in the background");
    const closed = await server.request(`/api/sessions/${sessionId}`, { method: "DELETE" });
    expect(closed.status).toBe(200);
    const record = await until(
      () => api.getSession(sessionId),
      (value) => value.tasks.every((task) => task.status === "cancelled"),
    );
    expect(record.status).toBe("closed");
    expect(record.tasks.map((task) => task.status)).toEqual(["cancelled", "cancelled"]);
    // Gates the cancelled tasks left behind.
    gates.splice(0);
  });
});

describe("a restart mid-task (one process, SQLite)", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "waddle-task-restart-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("marks the task interrupted, the session hears it as a task_update, and the next turn sees it", async () => {
    mkdirSync(dataDir, { recursive: true });
    const first = await startTestServer({ dataDir, toolsDir });
    expect(
      (await first.request("/api/agents", { method: "POST", json: backgrounder("restarter") })).status,
    ).toBe(201);
    const api = client(first);
    const sessionId = await api.newSession("restarter");
    const turned = await api.turn(sessionId, "Compile the audit in the background");
    const task = turned.tasks[0]!;
    await waitForRun(first, task.runId, new Set(["running"]));
    for (let tries = 0; tries < 1_000 && gates.length === 0; tries += 1) await sleep(10);
    await first.close();
    gates.splice(0);

    const second = await startTestServer({ dataDir, toolsDir });
    try {
      const after = client(second);
      const record = await until(
        () => after.getSession(sessionId),
        (value) => value.tasks[0]?.status === "interrupted",
      );
      expect(record.tasks[0]).toMatchObject({ status: "interrupted", error: { code: "interrupted" } });
      expect((await second.request(`/api/runs/${task.runId}`)).body.status).toBe("interrupted");
      const updates = (await after.events(sessionId)).filter((event) => event.type === "task_update");
      expect(updates.at(-1)?.data).toMatchObject({ taskId: task.taskId, status: "interrupted" });
      // Never silently lost: the next turn's context names it.
      const next = await after.turn(sessionId, "How is the audit going?");
      expect(next.turns[1]?.answer).toContain("interrupted");
    } finally {
      await second.close();
    }
  });
});
