import { defineGuardCheck } from "@waddle/planner";
import { fixtureReply, startOpenAiFixtureServer, type OpenAiFixtureServer } from "@waddle/planner/testing";
import {
  AgentSpec,
  TestCase,
  TestRunRecord,
  type GuardInput,
  type InboxResponse,
  type RunEvent,
} from "@waddle/protocol";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";
import { waitForRun } from "../testing/wait-for-run.js";

const KEY = "fixture-key-guard-runs-7";
let fixture: OpenAiFixtureServer;
let server: TestServer;
let socket: Socket;

beforeAll(async () => {
  fixture = await startOpenAiFixtureServer({ apiKey: KEY, models: ["house-model"] });
  server = await startTestServer({ env: { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: fixture.baseURL } });
  socket = connect(server.url, { transports: ["websocket"], reconnection: false });
  await new Promise<void>((resolve, reject) => {
    socket.on("connect", resolve);
    socket.on("connect_error", reject);
  });
});
afterAll(async () => {
  socket.disconnect();
  await server.stop();
  await fixture.close();
});

async function saveAgent(id: string, guards: GuardInput[]): Promise<void> {
  const spec = AgentSpec.parse({
    version: 1,
    id,
    name: id,
    llm: { provider: "openai", model: "house-model" },
    tools: [
      {
        name: "find_order",
        desc: "Finds an order",
        sideEffects: "read",
        argsSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
        impl: { kind: "mock", output: { status: "shipped", contact: "ana.lopez@example.com" } },
      },
    ],
    guards,
  });
  const saved = await server.request("/api/agents", { method: "POST", json: spec });
  expect(saved.status, saved.text).toBe(201);
}

async function startRun(agentId: string, query = "Where is order A-1?"): Promise<string> {
  const started = await server.request("/api/runs", { method: "POST", json: { agentId, query } });
  expect(started.status, started.text).toBe(202);
  return started.body.runId as string;
}

const eventsOf = async (runId: string) =>
  (await server.request(`/api/runs/${runId}/events`)).body.events as RunEvent[];

describe("guards in the server's runs", () => {
  it("runs the module guard checks registered with the server", async () => {
    server.registry.registerGuardCheck(
      defineGuardCheck({
        name: "no-competitors",
        check: (value) =>
          String(value).includes("Acme")
            ? { pass: false, findings: [{ kind: "competitor", count: 1 }] }
            : { pass: true },
      }),
      "test/house-rules.ts",
    );
    await saveAgent("house-rules", [
      { name: "rules", on: "output", check: { kind: "module", name: "no-competitors" }, action: "block" },
    ]);
    fixture.enqueue(fixtureReply.finalAnswer("Order A-1 is late: try Acme next time."));
    const run = await waitForRun(server, await startRun("house-rules"));
    expect(run.status).toBe("failed");
    const events = await eventsOf(run.id);
    expect(events.find((event) => event.type === "guard_verdict")?.data).toMatchObject({
      guard: "rules",
      verdict: "fail",
      action: "block",
      findings: [{ kind: "competitor", count: 1 }],
    });
    expect(events.at(-1)).toMatchObject({ type: "run_failed", data: { error: { code: "guard_blocked" } } });
    expect(JSON.stringify(events)).not.toContain("try Acme");
  });

  it("asks an llm guard's own model with the server's key, and refuses a run whose judge is on an endpoint not allowed", async () => {
    await saveAgent("judged", [
      {
        name: "polite",
        on: "output",
        check: {
          kind: "llm",
          prompt: "Fail a rude answer.",
          llm: { provider: "openai", model: "judge-model" },
        },
        action: "block",
      },
    ]);
    fixture.enqueue(
      fixtureReply.finalAnswer("Order A-1 has shipped."),
      fixtureReply.json({ verdict: "pass", reason: "Polite." }),
    );
    const run = await waitForRun(server, await startRun("judged"));
    expect(run.status).toBe("finished");
    const judge = fixture.completionRequests.at(-1)!;
    expect(JSON.stringify(judge.body)).toContain("judge-model");
    expect(JSON.stringify(judge.body)).toContain("You are a guard");

    await saveAgent("judged-elsewhere", [
      {
        name: "polite",
        on: "output",
        check: {
          kind: "llm",
          prompt: "Fail a rude answer.",
          llm: { provider: "openai", model: "judge-model", baseUrl: "https://judge.elsewhere.example/v1" },
        },
        action: "block",
      },
    ]);
    const before = fixture.completionRequests.length;
    const refused = await server.request("/api/runs", {
      method: "POST",
      json: { agentId: "judged-elsewhere", query: "Where is order A-1?" },
    });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      code: "llm_endpoint_not_allowed",
      details: { refusals: [{ path: "guards[0].check.llm", field: "baseUrl" }] },
    });
    expect(fixture.completionRequests.length).toBe(before);
  });
});

describe("a guard's pause in the inbox", () => {
  async function pauseOnce(): Promise<{ runId: string; resumeToken: string }> {
    fixture.enqueue(
      fixtureReply.json({ next_node: "find_order", args: { id: "A-1" } }),
      fixtureReply.finalAnswer("Order A-1 has shipped."),
    );
    const run = await waitForRun(
      server,
      await startRun("held-results"),
      new Set(["paused", "finished", "failed"]),
    );
    expect(run.status).toBe("paused");
    return { runId: run.id, resumeToken: run.pause!.resumeToken };
  }

  it("is an item with the guard's message; approving lets the result through, rejecting withholds it", async () => {
    await saveAgent("held-results", [
      { name: "no-pii", on: "tool_result", check: { kind: "pii", types: ["email"] }, action: "pause" },
    ]);
    const { runId, resumeToken } = await pauseOnce();
    const inbox = (await server.request("/api/inbox?agentId=held-results")).body as InboxResponse;
    const item = inbox.items.find((each) => each.runId === runId);
    expect(item).toMatchObject({ kind: "pause", reason: "guard", tool: "find_order" });
    expect(item?.message).toContain("no-pii");
    expect(item?.message).not.toContain("ana.lopez");
    const approved = await server.request(`/api/runs/${runId}/resume`, {
      method: "POST",
      json: { resumeToken, decision: "approve" },
    });
    expect(approved.status, approved.text).toBe(202);
    expect((await waitForRun(server, runId)).status).toBe("finished");

    const second = await pauseOnce();
    const rejected = await server.request(`/api/runs/${second.runId}/resume`, {
      method: "POST",
      json: { resumeToken: second.resumeToken, decision: "reject" },
    });
    expect(rejected.status, rejected.text).toBe(202);
    const ended = await waitForRun(server, second.runId);
    expect(ended.status).toBe("finished");
    // The model read a tool error instead of the result, and the result reached no event.
    const events = await eventsOf(second.runId);
    expect(JSON.stringify(events)).not.toContain("ana.lopez");
  });
});

describe("tests from a guarded run", () => {
  async function runSuite(agentId: string): Promise<TestRunRecord> {
    await socket.emitWithAck("watch_agent", { agentId });
    const started = await server.request(`/api/agents/${agentId}/test-runs`, { method: "POST", json: {} });
    expect(started.status, started.text).toBe(202);
    const testRunId = started.body.testRunId as string;
    const ended = new Promise<TestRunRecord>((resolve) => {
      const listener = (record: unknown) => {
        const parsed = TestRunRecord.parse(record);
        if (parsed.id !== testRunId || parsed.status === "running") return;
        socket.off("test_run_updated", listener);
        resolve(parsed);
      };
      socket.on("test_run_updated", listener);
    });
    const now = TestRunRecord.parse((await server.request(`/api/test-runs/${testRunId}`)).body);
    return now.status === "running" ? ended : now;
  }

  it("saves the guards' verdicts as expect.guards, which hold on the replay and fail when they do not", async () => {
    await saveAgent("flagged", [
      { name: "no-pii", on: "tool_result", check: { kind: "pii", types: ["email"] }, action: "flag" },
      { name: "short", on: "output", check: { kind: "max_length", chars: 400 }, action: "block" },
    ]);
    fixture.enqueue(
      fixtureReply.json({ next_node: "find_order", args: { id: "A-1" } }),
      fixtureReply.finalAnswer("Order A-1 has shipped."),
    );
    const runId = await startRun("flagged");
    expect((await waitForRun(server, runId)).status).toBe("finished");
    const saved = await server.request("/api/agents/flagged/tests", {
      method: "POST",
      json: { fromRunId: runId },
    });
    expect(saved.status, saved.text).toBe(201);
    const testCase = TestCase.parse(saved.body);
    expect(testCase.expect.guards).toEqual([
      { guard: "no-pii", verdict: "fail" },
      { guard: "short", verdict: "pass" },
    ]);
    const passed = await runSuite("flagged");
    expect(passed).toMatchObject({ status: "passed", totals: { passed: 1, failed: 0 } });

    const wrong = {
      ...testCase,
      expect: { ...testCase.expect, guards: [{ guard: "no-pii", verdict: "pass" }] },
    };
    const put = await server.request("/api/agents/flagged/tests", {
      method: "PUT",
      json: { cases: [wrong] },
    });
    expect(put.status, put.text).toBe(200);
    const failed = await runSuite("flagged");
    expect(failed.status).toBe("failed");
    expect(failed.cases[0]?.failures).toEqual([
      expect.objectContaining({
        check: "guards",
        expected: { guard: "no-pii", verdict: "pass" },
        message: 'Guard "no-pii" decided "fail", never "pass".',
      }),
    ]);
  });
});
