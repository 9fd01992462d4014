import { randomUUID } from "node:crypto";
import { HttpAgent } from "@ag-ui/client";
import type { BaseEvent, Interrupt } from "@ag-ui/core";
import { AgentSpec } from "@waddle/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../testing/start-test-server.js";
import {
  createPublicId,
  createVisitorSecret,
  generatePublishableKey,
} from "../../public/public-credentials.js";

const TOKEN = "bootstrap-token-for-agui";
let server: TestServer;
const keys: Record<string, string> = {};

/** An agent the offline model runs: its one tool waits for approval. */
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

beforeAll(async () => {
  server = await startTestServer({ token: TOKEN, exampleAgentsDir: null });
  const admin = { authorization: `Bearer ${TOKEN}` };
  for (const spec of [approver, { ...approver, id: "other", name: "Other" }]) {
    expect((await server.request("/api/agents", { method: "POST", headers: admin, json: spec })).status).toBe(
      201,
    );
  }
  for (const [name, role, agents, canDecide] of [
    ["viewer", "viewer", ["approver"], false],
    ["runner", "runner", ["approver"], false],
    ["decider", "runner", ["approver"], true],
    ["elsewhere", "runner", ["other"], false],
  ] as const) {
    const created = await server.request("/api/keys", {
      method: "POST",
      headers: admin,
      json: { name, role, agents, canDecide },
    });
    expect(created.status).toBe(201);
    keys[name] = created.body.key;
  }
});
afterAll(() => server.stop());

function agentWith(key: string | undefined, threadId = randomUUID()): HttpAgent {
  const agent = new HttpAgent({
    url: `${server.url}/agui/approver`,
    threadId,
    headers: key === undefined ? {} : { authorization: `Bearer ${key}` },
  });
  agent.addMessage({ id: randomUUID(), role: "user", content: "Refund my duplicate charge" });
  return agent;
}

/** The HTTP status a run answered with: 200 once it streamed, else the refusal's. */
async function statusOf(run: Promise<unknown>): Promise<number | undefined> {
  return run.then(
    () => 200,
    (error: { status?: number }) => error.status,
  );
}

async function runToInterrupt(agent: HttpAgent): Promise<Interrupt> {
  let interrupts: Interrupt[] = [];
  await agent.runAgent(
    {},
    {
      onRunFinishedEvent: (params) => {
        if (params.outcome === "interrupt") interrupts = params.interrupts;
      },
    },
  );
  expect(interrupts).toHaveLength(1);
  return interrupts[0]!;
}

describe("POST /agui/:id: keys as on /v1", () => {
  it("refuses no key (401) and a viewer's key (403 naming runs:start)", async () => {
    expect(await statusOf(agentWith(undefined).runAgent())).toBe(401);
    const refused = await agentWith(keys["viewer"])
      .runAgent()
      .catch((error: Error) => error);
    expect(refused).toMatchObject({ status: 403 });
    expect((refused as Error).message).toContain("runs:start");
  });

  it("answers a key limited to other agents as if the agent did not exist (404)", async () => {
    expect(await statusOf(agentWith(keys["elsewhere"]).runAgent())).toBe(404);
  });

  it("runs for a runner key; only a key that may decide answers the interrupt", async () => {
    const threadId = randomUUID();
    const agent = agentWith(keys["runner"], threadId);
    const interrupt = await runToInterrupt(agent);
    const resume = [{ interruptId: interrupt.id, status: "resolved" as const }];
    const refused = await agent.runAgent({ resume }).catch((error: Error) => error);
    expect(refused).toMatchObject({ status: 403 });
    expect((refused as Error).message).toContain("runs:decide");

    // The same thread, answered by a key that may decide: the run goes on to its answer.
    const decider = new HttpAgent({
      url: `${server.url}/agui/approver`,
      threadId,
      headers: { authorization: `Bearer ${keys["decider"]}` },
    });
    decider.pendingInterrupts = [interrupt];
    let outcome: string | undefined;
    await decider.runAgent({ resume }, { onRunFinishedEvent: (params) => void (outcome = params.outcome) });
    expect(outcome).toBe("success");
    const events = await server.store.listEvents(String(interrupt.metadata?.["waddle"]?.runId));
    expect(events.find((event) => event.type === "resumed")?.data).toMatchObject({
      decision: "approve",
      actor: "decider",
    });
  });
});

describe("POST /agui/:id with a public chat's publishable key", () => {
  let publishable: string;
  let publicId: string;
  const admin = { authorization: `Bearer ${TOKEN}` };

  beforeAll(async () => {
    const { keyId, key } = generatePublishableKey();
    publishable = key;
    publicId = createPublicId();
    const now = new Date().toISOString();
    await server.store.publicChat.chats.put({
      agentId: "approver",
      publicId,
      keyId,
      publishableKey: key,
      visitorSecret: createVisitorSecret(),
      settings: { enabled: true, title: "Refunds", allowedOrigins: [], showSteps: "names" },
      createdAt: now,
      updatedAt: now,
      updatedBy: "test",
    });
  });

  it("runs its own agent; a pause waits for a team member, and the stream goes on once one decides", async () => {
    const agent = agentWith(publishable);
    const events: BaseEvent[] = [];
    const decided = new Promise<void>((resolve, reject) => {
      const run = agent.runAgent(
        {},
        {
          onEvent: ({ event }) => {
            events.push(event);
            if (event.type !== "CUSTOM" || event["name"] !== "waddle.waiting") return;
            // A team member approves in the designer (the REST resume it calls).
            const runId = (events[0]!.metadata as { waddle: { runId: string } }).waddle.runId;
            void (async () => {
              const paused = (await server.request(`/api/runs/${runId}`, { headers: admin })).body;
              const resumed = await server.request(`/api/runs/${runId}/resume`, {
                method: "POST",
                headers: admin,
                json: { resumeToken: paused.pause.resumeToken, decision: "approve" },
              });
              if (resumed.status !== 202) reject(new Error(resumed.text));
            })();
          },
        },
      );
      run.then(() => resolve(), reject);
    });
    await decided;
    const types: string[] = events.map((event) => event.type);
    const waiting = events.find((event) => event.type === "CUSTOM");
    expect(waiting).toMatchObject({
      name: "waddle.waiting",
      value: { reason: "approval_required", message: expect.stringContaining("refund") },
    });
    // Never the tool's arguments, results or the model's thinking: names and outcomes only.
    expect(types).not.toContain("TOOL_CALL_ARGS");
    expect(types).not.toContain("REASONING_MESSAGE_CONTENT");
    expect(events.find((event) => event.type === "TOOL_CALL_RESULT")).toMatchObject({
      content: '{"status":"done"}',
    });
    expect(types.indexOf("CUSTOM")).toBeLessThan(types.indexOf("TOOL_CALL_START"));
    expect(events.at(-1)).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "success" } });
    expect(agent.pendingInterrupts).toEqual([]);
    // Its threads live inside its chat: the session is not named by the thread id.
    const { sessionId } = (events[0]!.metadata as { waddle: { sessionId: string } }).waddle;
    expect(sessionId).toMatch(/^ses_agui_[0-9a-f]{32}$/);
  });

  it("is 404 for another agent or another channel, 403 for answering an interrupt, 401 once unknown", async () => {
    const other = new HttpAgent({
      url: `${server.url}/agui/other`,
      threadId: randomUUID(),
      headers: { authorization: `Bearer ${publishable}` },
    });
    other.addMessage({ id: randomUUID(), role: "user", content: "Hello" });
    expect(await statusOf(other.runAgent())).toBe(404);
    const channel = await server.request("/agui/approver@staging", {
      method: "POST",
      headers: { authorization: `Bearer ${publishable}` },
      json: { threadId: randomUUID(), runId: "r", messages: [{ id: "m", role: "user", content: "Hi" }] },
    });
    expect(channel.status).toBe(404);
    expect(channel.body.message).toContain('serves "approver@production" only');
    const answer = await server.request("/agui/approver", {
      method: "POST",
      headers: { authorization: `Bearer ${publishable}` },
      json: {
        threadId: randomUUID(),
        runId: "r",
        messages: [],
        resume: [{ interruptId: "x", status: "resolved" }],
      },
    });
    expect(answer.status).toBe(403);
    expect(answer.body.details).toEqual({ permission: "runs:decide" });
    const { key: unknown } = generatePublishableKey();
    expect(await statusOf(agentWith(unknown).runAgent())).toBe(401);
  });

  it("is refused on every other route", async () => {
    for (const [method, path] of [
      ["GET", "/api/agents"],
      ["POST", "/v1/chat/completions"],
      ["GET", "/api/sessions"],
    ] as const) {
      const response = await server.request(path, {
        method,
        headers: { authorization: `Bearer ${publishable}` },
        ...(method === "POST" ? { json: { model: "approver", messages: [] } } : {}),
      });
      expect(response.status, `${method} ${path}`).toBe(401);
    }
  });
});
