import { randomUUID } from "node:crypto";
import { ClientFactory, type Client } from "@a2a-js/sdk/client";
import { ListTasksRequest, TaskState, type Part, type StreamResponse, type Task } from "@a2a-js/sdk";
import {
  afterAll,
  afterEach,
  beforeAll,
  beforeEach,
  describe,
  expect,
  it,
  vi,
  type MockInstance,
} from "vitest";
import type { Logger, LogLevel } from "../../shared/logger.js";
import { startTestServer, type TestServer } from "../../testing/start-test-server.js";
import { send, slowAgent, text, userMessage } from "./a2a-test-messages.js";

const entries: { level: LogLevel; message: string; fields: Record<string, unknown> }[] = [];
const record =
  (level: LogLevel) =>
  (message: string, fields: Record<string, unknown> = {}): void => {
    entries.push({ level, message, fields });
  };
const logger: Logger = {
  debug: record("debug"),
  info: record("info"),
  warn: record("warn"),
  error: record("error"),
};
const a2aEntries = () => entries.filter((entry) => entry.message.startsWith("A2A request"));

const sendParts = (parts: Part[], ids: { taskId?: string; contextId?: string } = {}) =>
  send(userMessage(parts, ids));

let server: TestServer;
let client: (agentId: string) => Promise<Client>;
let consoleError: MockInstance<typeof console.error>;
beforeAll(async () => {
  server = await startTestServer({ logger });
  expect((await server.request("/api/agents", { method: "POST", json: slowAgent })).status).toBe(201);
  const factory = new ClientFactory();
  client = (agentId) => factory.createFromUrl(`${server.url}/a2a/${agentId}/.well-known/agent-card.json`, "");
});
afterAll(() => server.stop());
beforeEach(() => {
  entries.length = 0;
  // Passes through: a console.error from anywhere else still shows; the test only counts them.
  consoleError = vi.spyOn(console, "error");
});
afterEach(() => consoleError.mockRestore());

describe("A2A errors go to the server's logger, not the console", () => {
  it("a refused message/stream (a message on a working task) is a debug entry, no console.error", async () => {
    const a2a = await client("slow-lookup");
    const stream = a2a.sendMessageStream(sendParts([text("Look up the weather")]));
    const first = await stream.next();
    const task = first.value?.payload?.$case === "task" ? first.value.payload.value : undefined;
    expect(task).toBeDefined();
    const refused = a2a.sendMessageStream(
      sendParts([text("hurry")], { taskId: task!.id, contextId: task!.contextId }),
    );
    const drain = async (events: AsyncGenerator<StreamResponse>) => {
      for await (const event of events) void event;
    };
    await expect(drain(refused)).rejects.toThrow(/not input-required/);
    await a2a.cancelTask({ tenant: "", id: task!.id, metadata: undefined });
    await drain(stream);

    expect(consoleError).not.toHaveBeenCalled();
    const entry = a2aEntries().find((candidate) =>
      /not input-required/.test(String(candidate.fields["error"])),
    );
    expect(entry).toMatchObject({
      level: "debug",
      message: "A2A request refused",
      fields: { agentId: "slow-lookup", code: -32004, when: "before the stream" },
    });
  });

  it("an unsupported A2A-Version and an unknown task are debug entries, no console.error", async () => {
    const version = await fetch(`${server.url}/a2a/support-triage`, {
      method: "POST",
      headers: { "content-type": "application/json", "A2A-Version": "9.9" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "GetTask", params: { id: "t" } }),
    });
    const answer = (await version.json()) as { id: unknown; error: { code: number; message: string } };
    expect(answer).toMatchObject({ id: 7, error: { code: -32009 } });
    const a2a = await client("support-triage");
    await expect(a2a.getTask({ tenant: "", id: "no-such-task" })).rejects.toThrow(/Task not found/);

    expect(consoleError).not.toHaveBeenCalled();
    expect(a2aEntries().map((entry) => [entry.level, entry.fields["code"]])).toEqual([
      ["debug", -32009],
      ["debug", -32001],
    ]);
  });

  it("a server fault answers -32603 and is an error entry with its stack, no console.error", async () => {
    const get = vi.spyOn(server.store.a2aTasks, "get").mockRejectedValueOnce(new Error("the disk went away"));
    try {
      const a2a = await client("support-triage");
      await expect(a2a.getTask({ tenant: "", id: "any-task" })).rejects.toThrow(/the disk went away/);
    } finally {
      get.mockRestore();
    }
    expect(consoleError).not.toHaveBeenCalled();
    expect(a2aEntries()).toEqual([
      expect.objectContaining({
        level: "error",
        message: "A2A request failed",
        fields: expect.objectContaining({ code: -32603, error: "the disk went away" }),
      }),
    ]);
  });
});

describe("A2A ListTasks", () => {
  it("lists the agent's stored tasks, newest first, in pages, filtered by context and status", async () => {
    const a2a = await client("support-triage");
    const sent: Task[] = [];
    for (const query of ["Refund please", "My invoice is wrong", "Duplicate charge"]) {
      sent.push((await a2a.sendMessage(sendParts([text(query)]))) as Task);
    }
    // A task of another agent: never in this agent's list.
    const other = (await (
      await client("email-approval")
    ).sendMessage(sendParts([text("Email Dana")]))) as Task;
    const list = (request: Record<string, unknown>) => a2a.listTasks(ListTasksRequest.fromJSON(request));

    const all = await list({});
    expect(all.totalSize).toBe(3);
    expect(all.tasks.map((task) => task.id).sort()).toEqual(sent.map((task) => task.id).sort());
    expect(all.tasks.map((task) => task.id)).not.toContain(other.id);
    const times = all.tasks.map((task) => task.status?.timestamp ?? "");
    expect(times).toEqual([...times].sort().reverse());
    expect(all.tasks.every((task) => task.status?.state === TaskState.TASK_STATE_COMPLETED)).toBe(true);
    expect(all.tasks.every((task) => task.artifacts.length === 0)).toBe(true);

    const first = await list({ pageSize: 2 });
    expect(first.tasks).toHaveLength(2);
    expect(first.nextPageToken).not.toBe("");
    const second = await list({ pageSize: 2, pageToken: first.nextPageToken });
    expect(second.tasks).toHaveLength(1);
    expect(second.nextPageToken).toBe("");
    expect([...first.tasks, ...second.tasks].map((task) => task.id)).toEqual(
      all.tasks.map((task) => task.id),
    );

    const one = await list({ contextId: sent[1]!.contextId, includeArtifacts: true });
    expect(one.tasks.map((task) => task.id)).toEqual([sent[1]!.id]);
    expect(one.tasks[0]!.artifacts.length).toBeGreaterThan(0);
    expect((await list({ status: "TASK_STATE_WORKING" })).tasks).toEqual([]);
    expect((await list({ status: "TASK_STATE_COMPLETED" })).totalSize).toBe(3);
    const paused = await (
      await client("email-approval")
    ).listTasks(ListTasksRequest.fromJSON({ status: "TASK_STATE_INPUT_REQUIRED" }));
    expect(paused.tasks.map((task) => task.id)).toEqual([other.id]);
    await expect(list({ pageToken: "not-a-token" })).rejects.toThrow(/pageToken/);
    expect(consoleError).not.toHaveBeenCalled();
  });

  it("a key limited to one agent lists that agent's tasks and gets 404 for another's", async () => {
    const token = "bootstrap-token-for-the-a2a-list";
    const guarded = await startTestServer({ token, logger });
    try {
      const created = await guarded.request("/api/keys", {
        method: "POST",
        headers: { authorization: `Bearer ${token}` },
        json: { name: "triage-only", role: "runner", agents: ["support-triage"] },
      });
      expect(created.status).toBe(201);
      const rpc = async (agentId: string, method: string, params: Record<string, unknown>) => {
        const response = await fetch(`${guarded.url}/a2a/${agentId}`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "A2A-Version": "1.0",
            authorization: `Bearer ${created.body.key as string}`,
          },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
        });
        // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test answers are read field by field
        return { status: response.status, body: (await response.json()) as Record<string, any> };
      };
      const message = (value: string) => ({
        message: { messageId: randomUUID(), role: "ROLE_USER", parts: [{ text: value }] },
      });
      const sentHere = await rpc("support-triage", "SendMessage", message("Refund please"));
      expect(sentHere.body.result?.task?.id).toEqual(expect.any(String));
      const listed = await rpc("support-triage", "ListTasks", {});
      expect(listed.body.result.tasks.map((task: { id: string }) => task.id)).toEqual([
        sentHere.body.result.task.id,
      ]);
      expect(listed.body.result.totalSize).toBe(1);
      const elsewhere = await rpc("email-approval", "ListTasks", {});
      expect(elsewhere.status).toBe(404);
      expect(elsewhere.body.result).toBeUndefined();
    } finally {
      await guarded.stop();
    }
  });
});
