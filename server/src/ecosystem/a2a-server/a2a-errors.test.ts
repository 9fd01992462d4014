import { randomUUID } from "node:crypto";
import { ClientFactory, type Client } from "@a2a-js/sdk/client";
import { ListTasksRequest, Role, type Message, type Part, type StreamResponse } from "@a2a-js/sdk";
import { AgentSpec } from "@waddle/protocol";
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

/** One slow mock tool: the offline model calls it, so the run stays working until cancelled. */
const slowAgent = AgentSpec.parse({
  version: 1,
  id: "slow-lookup",
  name: "Slow lookup",
  description: "Looks something up, slowly.",
  sampleQueries: ["Look up the weather"],
  tools: [
    { name: "lookup", desc: "Looks up", impl: { kind: "mock", output: { ok: true }, latencyMs: 60_000 } },
  ],
});

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

const text = (value: string): Part => ({
  content: { $case: "text", value },
  metadata: undefined,
  filename: "",
  mediaType: "text/plain",
});
function send(parts: Part[], ids: { taskId?: string; contextId?: string } = {}) {
  const message: Message = {
    messageId: randomUUID(),
    contextId: ids.contextId ?? "",
    taskId: ids.taskId ?? "",
    role: Role.ROLE_USER,
    parts,
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
  return { tenant: "", message, configuration: undefined, metadata: undefined };
}

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
    const stream = a2a.sendMessageStream(send([text("Look up the weather")]));
    const first = await stream.next();
    const task = first.value?.payload?.$case === "task" ? first.value.payload.value : undefined;
    expect(task).toBeDefined();
    const refused = a2a.sendMessageStream(
      send([text("hurry")], { taskId: task!.id, contextId: task!.contextId }),
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
  it("is refused as unsupported (v1.0) and unknown (v0.3), never answered with an empty list", async () => {
    const a2a = await client("support-triage");
    // A task exists: an empty list would be a lie.
    await a2a.sendMessage(send([text("Refund please")]));
    await expect(a2a.listTasks(ListTasksRequest.fromJSON({}))).rejects.toThrow(
      /ListTasks is not supported by this server/,
    );
    const rpc = async (method: string, headers: Record<string, string>) => {
      const response = await fetch(`${server.url}/a2a/support-triage`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: {} }),
      });
      return (await response.json()) as { result?: unknown; error?: { code: number } };
    };
    const current = await rpc("ListTasks", { "A2A-Version": "1.0" });
    expect(current.result).toBeUndefined();
    expect(current.error?.code).toBe(-32004);
    const legacy = await rpc("tasks/list", {});
    expect(legacy.result).toBeUndefined();
    expect(legacy.error?.code).toBe(-32601);
    expect(consoleError).not.toHaveBeenCalled();
  });
});
