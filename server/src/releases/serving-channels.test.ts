import { randomUUID } from "node:crypto";
import { ClientFactory } from "@a2a-js/sdk/client";
import { TaskState, type Task } from "@a2a-js/sdk";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { AgentSpec } from "@waddle/protocol";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { send, text, userMessage } from "../ecosystem/a2a-server/a2a-test-messages.js";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";

let server: TestServer;
let openai: OpenAI;

/** Version 1 on production, 2 on staging, 3 the latest save: each surface must tell them apart. */
async function createReleasedAgent(id: string): Promise<void> {
  const spec = AgentSpec.parse({
    version: 1,
    id,
    name: id,
    tools: [{ name: "lookup", desc: "Looks up", impl: { kind: "mock", output: { ok: true } } }],
  });
  expect((await server.request("/api/agents", { method: "POST", json: spec })).status).toBe(201);
  for (const baseVersion of [1, 2]) {
    const json = { spec: { ...spec, name: `${id} v${baseVersion + 1}` }, baseVersion };
    expect((await server.request(`/api/agents/${id}`, { method: "PUT", json })).status).toBe(200);
  }
  await release(id, 1, "production");
  await release(id, 2, "staging");
}

async function release(agentId: string, version: number, channel: string): Promise<void> {
  const json = { version, channel };
  const answer = await server.request(`/api/agents/${agentId}/releases`, { method: "POST", json });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
}

const getRun = async (runId: string) => (await server.request(`/api/runs/${runId}`)).body;

beforeAll(async () => {
  server = await startTestServer({ maxConcurrentRuns: 4 });
  openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "unused-without-a-token", maxRetries: 0 });
});
afterAll(() => server.stop());

type WaddleField = { waddle: { runId: string } };

describe("/v1 resolves channels", () => {
  it("runs production without a version, agent@staging and agent@3 when named, and lists the channels", async () => {
    await createReleasedAgent("served-v1");
    const runOn = async (model: string) => {
      const messages = [{ role: "user" as const, content: "Look it up" }];
      const completion = await openai.chat.completions.create({ model, messages });
      expect(completion.model).toBe(model);
      return getRun((completion as unknown as WaddleField).waddle.runId);
    };
    expect(await runOn("served-v1")).toMatchObject({ agentVersion: 1, channel: "production" });
    expect(await runOn("served-v1@staging")).toMatchObject({ agentVersion: 2, channel: "staging" });
    const pinned = await runOn("served-v1@3");
    expect(pinned.agentVersion).toBe(3);
    expect(pinned.channel).toBeUndefined();

    const missing = await openai.chat.completions
      .create({ model: "served-v1@nope", messages: [{ role: "user", content: "Look it up" }] })
      .catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(OpenAI.NotFoundError);
    expect(missing).toMatchObject({ status: 404, code: "model_not_found" });
    expect((missing as Error).message).toContain('no channel "nope"');

    const models = [];
    for await (const model of openai.models.list()) models.push(model.id);
    expect(models).toEqual(
      expect.arrayContaining(["support-triage", "served-v1", "served-v1@production", "served-v1@staging"]),
    );
    expect(await openai.models.retrieve("served-v1@staging")).toMatchObject({ id: "served-v1@staging" });
  });

  it("/v1/responses: a conversation keeps the version it started on; a new one gets the new release", async () => {
    await createReleasedAgent("served-responses");
    const staged = await openai.responses.create({ model: "served-responses@staging", input: "Look it up" });
    // a response is a session's turn: the session pins the version and the channel it came from
    const stagedRun = await getRun(staged.id);
    expect(stagedRun).toMatchObject({ agentVersion: 2, channel: "staging" });
    expect(await server.store.sessions.get(stagedRun.sessionId)).toMatchObject({ channel: "staging" });

    const first = await openai.responses.create({ model: "served-responses", input: "Look it up" });
    expect(await getRun(first.id)).toMatchObject({ agentVersion: 1 });
    await release("served-responses", 3, "production");
    const next = await openai.responses.create({
      model: "served-responses",
      input: "And again",
      previous_response_id: first.id,
    });
    expect(await getRun(next.id)).toMatchObject({ agentVersion: 1, channel: "production" });
    const fresh = await openai.responses.create({ model: "served-responses", input: "Look it up" });
    expect(await getRun(fresh.id)).toMatchObject({ agentVersion: 3 });
  });
});

describe("/mcp resolves channels", () => {
  it("calls production by the agent's name and a channel as <agent>.<channel>, both listed", async () => {
    await createReleasedAgent("served-mcp");
    const client = new Client({ name: "waddle-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    try {
      const { tools } = await client.listTools();
      const names = tools.map((tool) => tool.name).filter((name) => name.startsWith("served-mcp"));
      expect(names).toEqual(["served-mcp", "served-mcp.production", "served-mcp.staging"]);
      expect(tools.find((tool) => tool.name === "served-mcp")?.description).toContain("(version 1)");
      const call = async (name: string) => {
        const result = await client.callTool({ name, arguments: { query: "Look it up" } });
        return getRun((result.structuredContent as { runId: string }).runId);
      };
      expect(await call("served-mcp")).toMatchObject({ agentVersion: 1, channel: "production" });
      expect(await call("served-mcp.staging")).toMatchObject({ agentVersion: 2, channel: "staging" });
      expect(await call("served-mcp.3")).toMatchObject({ agentVersion: 3 });
      await expect(client.callTool({ name: "served-mcp.nope", arguments: { query: "q" } })).rejects.toThrow(
        /no channel "nope"/,
      );
    } finally {
      await client.close();
    }
  });
});

describe("A2A resolves channels", () => {
  it("serves production at /a2a/<agent> and a channel at /a2a/<agent>@<channel>; a context keeps its version", async () => {
    await createReleasedAgent("served-a2a");
    const factory = new ClientFactory();
    const connect = (name: string) =>
      factory.createFromUrl(`${server.url}/a2a/${name}/.well-known/agent-card.json`, "");
    const ask = async (name: string, contextId: string) => {
      const task = (await (
        await connect(name)
      ).sendMessage(send(userMessage([text("Look it up")], { contextId })))) as Task;
      expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      const session = await server.store.sessions.get(contextId);
      return { session, run: await getRun(session!.turns.at(-1)!.runId) };
    };
    const staged = await ask("served-a2a@staging", randomUUID());
    expect(staged.session).toMatchObject({ agentVersion: 2, channel: "staging" });
    expect(staged.run).toMatchObject({ agentVersion: 2, channel: "staging" });

    const context = randomUUID();
    expect((await ask("served-a2a", context)).run.agentVersion).toBe(1);
    await release("served-a2a", 3, "production");
    expect((await ask("served-a2a", context)).run.agentVersion).toBe(1);
    expect((await ask("served-a2a", randomUUID())).run.agentVersion).toBe(3);

    const unknown = await fetch(`${server.url}/a2a/served-a2a@nope/.well-known/agent-card.json`);
    expect(unknown.status).toBe(404);
  });
});
