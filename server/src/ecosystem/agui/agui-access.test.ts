import { randomUUID } from "node:crypto";
import { HttpAgent } from "@ag-ui/client";
import type { Interrupt } from "@ag-ui/core";
import { AgentSpec } from "@waddle/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../testing/start-test-server.js";

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
