import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ClientFactory, type Client } from "@a2a-js/sdk/client";
import { TaskState, type Part, type StreamResponse, type Task } from "@a2a-js/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../testing/start-test-server.js";
import { createWaddleServer } from "../../server.js";
import { send, slowAgent, text, userMessage } from "./a2a-test-messages.js";

const cardUrl = (server: TestServer, agentId: string) =>
  `${server.url}/a2a/${agentId}/.well-known/agent-card.json`;

const data = (value: Record<string, unknown>): Part => ({
  content: { $case: "data", value },
  metadata: undefined,
  filename: "",
  mediaType: "application/json",
});
function partsText(parts: Part[]): string {
  return parts.map((part) => (part.content?.$case === "text" ? part.content.value : "")).join("");
}

async function rpc(server: TestServer, agentId: string, body: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}/a2a/${agentId}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test answers are read field by field
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

describe("/a2a/<agentId>: every agent is an A2A agent", () => {
  let server: TestServer;
  let client: (agentId: string) => Promise<Client>;
  beforeAll(async () => {
    server = await startTestServer();
    expect((await server.request("/api/agents", { method: "POST", json: slowAgent })).status).toBe(201);
    const factory = new ClientFactory();
    client = (agentId) => factory.createFromUrl(cardUrl(server, agentId), "");
  });
  afterAll(() => server.stop());

  it("serves the Agent Card: name, description, skills from the sample queries, streaming, both versions", async () => {
    const card = await (await client("slow-lookup")).getAgentCard();
    expect(card).toMatchObject({
      name: "Slow lookup",
      description: "Looks something up, slowly.",
      capabilities: { streaming: true },
      securitySchemes: {},
    });
    expect(card.skills.map((skill) => skill.examples)).toEqual([["Look up the weather"]]);
    expect(card.supportedInterfaces.map((entry) => [entry.protocolVersion, entry.url])).toEqual([
      ["1.0", `${server.url}/a2a/slow-lookup`],
      ["0.3", `${server.url}/a2a/slow-lookup`],
    ]);
    const unknown = await fetch(cardUrl(server, "no-such-agent"));
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: "not_found" });
  });

  it("message/send answers with a completed task whose artifact is the answer; tasks/get reads it", async () => {
    const a2a = await client("support-triage");
    const result = await a2a.sendMessage(send(userMessage([text("My invoice is wrong")])));
    const task = result as Task;
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const answer = partsText(task.artifacts[0]!.parts);
    expect(answer.length).toBeGreaterThan(0);
    const runId = (task.metadata?.waddle as { runId: string }).runId;
    const run = await server.store.getRun(runId);
    expect(run).toMatchObject({ status: "finished", agentId: "support-triage" });
    // Its context is a Waddle session whose turn is this run.
    const session = await server.store.sessions.get(task.contextId);
    expect(session?.turns.map((turn) => turn.runId)).toEqual([runId]);
    const read = await a2a.getTask({ tenant: "", id: task.id });
    expect(read.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(partsText(read.artifacts[0]!.parts)).toBe(answer);
  });

  it("a second task in the same contextId is the next turn of the same Waddle session", async () => {
    const a2a = await client("support-triage");
    const first = (await a2a.sendMessage(send(userMessage([text("My invoice is wrong")])))) as Task;
    const second = (await a2a.sendMessage(
      send(userMessage([text("And the one before?")], { contextId: first.contextId })),
    )) as Task;
    expect(second.id).not.toBe(first.id);
    expect(second.contextId).toBe(first.contextId);
    expect(second.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const session = await server.store.sessions.get(first.contextId);
    expect(session?.turns.map((turn) => turn.runId)).toEqual([
      (first.metadata?.waddle as { runId: string }).runId,
      (second.metadata?.waddle as { runId: string }).runId,
    ]);
  });

  it("adds the run's reasoning as a separate thinking part when the request asks for it", async () => {
    const a2a = await client("support-triage");
    const plain = (await a2a.sendMessage(send(userMessage([text("My invoice is wrong")])))) as Task;
    expect(plain.artifacts[0]!.parts).toHaveLength(1);
    const asked = (await a2a.sendMessage({
      ...send(userMessage([text("My invoice is wrong")])),
      metadata: { thinking: true },
    })) as Task;
    const [answer, thinking] = asked.artifacts[0]!.parts;
    expect(answer?.metadata?.kind).toBeUndefined();
    expect(thinking?.metadata).toEqual({ kind: "thinking" });
    expect(partsText([thinking!]).length).toBeGreaterThan(0);
  });

  it("message/stream sends the task, status updates, the answer as an artifact, then completed", async () => {
    const a2a = await client("support-triage");
    const events: StreamResponse[] = [];
    for await (const event of a2a.sendMessageStream(send(userMessage([text("Reset my password")])))) {
      events.push(event);
    }
    const cases = events.map((event) => event.payload?.$case);
    expect(cases[0]).toBe("task");
    expect(cases).toContain("statusUpdate");
    const artifactAt = cases.indexOf("artifactUpdate");
    expect(artifactAt).toBeGreaterThan(0);
    const last = events.at(-1)!.payload;
    expect(last?.$case).toBe("statusUpdate");
    if (last?.$case === "statusUpdate") expect(last.value.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it("a paused run is input-required with the pause in a data part; a {decision} message answers it", async () => {
    const a2a = await client("email-approval");
    const paused = (await a2a.sendMessage(send(userMessage([text("Email Dana the report")])))) as Task;
    expect(paused.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const pausePart = paused.status?.message?.parts.find((part) => part.content?.$case === "data");
    expect(pausePart?.content?.value).toMatchObject({
      reason: "approval_required",
      resumeToken: expect.any(String),
    });
    // A message on it that is no answer is refused with the spec's error, the task stays paused.
    await expect(
      a2a.sendMessage(
        send(userMessage([data({ decision: "maybe" })], { taskId: paused.id, contextId: paused.contextId })),
      ),
    ).rejects.toThrow(/decision/);
    const answered = (await a2a.sendMessage(
      send(userMessage([data({ decision: "approve" })], { taskId: paused.id, contextId: paused.contextId })),
    )) as Task;
    expect(answered.id).toBe(paused.id);
    expect(answered.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(answered.artifacts.length).toBe(1);
    // An ended task takes no more messages: the SDK's UnsupportedOperationError.
    await expect(
      a2a.sendMessage(
        send(
          userMessage([data({ decision: "approve" })], { taskId: paused.id, contextId: paused.contextId }),
        ),
      ),
    ).rejects.toThrow(/terminal/);
  });

  it("a message on a working task is refused; tasks/cancel cancels its run", async () => {
    const a2a = await client("slow-lookup");
    const stream = a2a.sendMessageStream(send(userMessage([text("Look up the weather")])));
    const first = await stream.next();
    const task = first.value?.payload?.$case === "task" ? first.value.payload.value : undefined;
    expect(task).toBeDefined();
    const runId = (task!.metadata?.waddle as { runId: string }).runId;
    await expect(
      a2a.sendMessage(send(userMessage([text("hurry")], { taskId: task!.id, contextId: task!.contextId }))),
    ).rejects.toThrow(/not input-required/);
    const cancelled = await a2a.cancelTask({ tenant: "", id: task!.id, metadata: undefined });
    expect(cancelled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    for await (const event of stream) void event;
    expect((await server.store.getRun(runId))?.status).toBe("cancelled");
  });

  it("speaks v0.3 (message/send, tasks/get) without an A2A-Version header", async () => {
    const sent = await rpc(
      server,
      "support-triage",
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "message/send",
        params: {
          message: {
            kind: "message",
            role: "user",
            messageId: randomUUID(),
            parts: [{ kind: "text", text: "Refund please" }],
          },
        },
      }),
    );
    expect(sent.body.result).toMatchObject({ kind: "task", status: { state: "completed" } });
    const got = await rpc(
      server,
      "support-triage",
      JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tasks/get", params: { id: sent.body.result.id } }),
    );
    expect(got.body.result).toMatchObject({ id: sent.body.result.id, status: { state: "completed" } });
  });

  it("answers invalid JSON with -32700 and an invalid request with -32600, whichever version header", async () => {
    const versions: Record<string, string>[] = [{}, { "A2A-Version": "0.3" }, { "A2A-Version": "1.0" }];
    for (const headers of versions) {
      const parse = await rpc(server, "support-triage", "{not json", headers);
      expect(parse.body.error.code).toBe(-32700);
      const invalid = await rpc(server, "support-triage", JSON.stringify({ id: 3, method: 7 }), headers);
      expect(invalid.body.error.code).toBe(-32600);
    }
    const unknown = await rpc(
      server,
      "no-such-agent",
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tasks/get", params: { id: "x" } }),
    );
    expect(unknown.status).toBe(404);
  });
});

describe("A2A tasks are stored", () => {
  it("tasks/get answers after a restart, from the same data folder", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "waddle-a2a-restart-"));
    const options = { port: 0, dataDir, logLevel: "silent" as const, designerDir: null, env: {} };
    const first = await createWaddleServer(options);
    let taskId: string;
    try {
      const a2a = await new ClientFactory().createFromUrl(
        `${first.url}/a2a/email-approval/.well-known/agent-card.json`,
        "",
      );
      const task = (await a2a.sendMessage(send(userMessage([text("Email Dana the report")])))) as Task;
      expect(task.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
      taskId = task.id;
    } finally {
      await first.close();
    }
    const second = await createWaddleServer(options);
    try {
      const a2a = await new ClientFactory().createFromUrl(
        `${second.url}/a2a/email-approval/.well-known/agent-card.json`,
        "",
      );
      const read = await a2a.getTask({ tenant: "", id: taskId });
      expect(read.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
      expect(read.history[0]?.parts[0]?.content).toEqual({ $case: "text", value: "Email Dana the report" });
      // The paused run is answered on the new server through the same task.
      const answered = (await a2a.sendMessage(
        send(
          userMessage([data({ decision: "reject", note: "Not now" })], { taskId, contextId: read.contextId }),
        ),
      )) as Task;
      expect(answered.id).toBe(taskId);
      expect([TaskState.TASK_STATE_COMPLETED, TaskState.TASK_STATE_FAILED]).toContain(answered.status?.state);
    } finally {
      await second.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
