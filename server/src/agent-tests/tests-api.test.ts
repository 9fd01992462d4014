import { AgentSpec, TestCase, TestRunRecord, type TestCaseInput } from "@waddle/protocol";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";
import { waitForRun } from "../testing/wait-for-run.js";

let server: TestServer;
let socket: Socket;
const updates: TestRunRecord[] = [];

beforeAll(async () => {
  server = await startTestServer({ maxConcurrentRuns: 4 });
  socket = connect(server.url, { transports: ["websocket"], reconnection: false });
  socket.on("test_run_updated", (record: unknown) => updates.push(TestRunRecord.parse(record)));
  await new Promise<void>((resolve, reject) => {
    socket.on("connect", resolve);
    socket.on("connect_error", reject);
  });
  await socket.emitWithAck("watch_agent", { agentId: "support-triage" });
});
afterAll(async () => {
  socket.disconnect();
  await server.stop();
});

/** Runs the agent once and waits for its end. */
async function runOnce(agentId: string, query: string): Promise<string> {
  const started = await server.request("/api/runs", { method: "POST", json: { agentId, query } });
  expect(started.status).toBe(202);
  await waitForRun(server, started.body.runId as string);
  return started.body.runId as string;
}

/** Starts a test run and waits until it has ended (its record is read from the store as it changes). */
async function runSuite(agentId: string, body: Record<string, unknown> = {}): Promise<TestRunRecord> {
  const started = await server.request(`/api/agents/${agentId}/test-runs`, { method: "POST", json: body });
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  const testRunId = started.body.testRunId as string;
  for (;;) {
    const record = TestRunRecord.parse((await server.request(`/api/test-runs/${testRunId}`)).body);
    if (record.status !== "running") return record;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("tests from runs over REST", () => {
  it("saves a run as a case, runs the suite as test runs hidden from history, and tells watchers", async () => {
    await server.request("/api/agents/support-triage/tests", { method: "PUT", json: { cases: [] } });
    const runId = await runOnce("support-triage", "My invoice shows a duplicate charge for March");
    const saved = await server.request("/api/agents/support-triage/tests", {
      method: "POST",
      json: { fromRunId: runId, name: "duplicate charge" },
    });
    expect(saved.status).toBe(201);
    const testCase = TestCase.parse(saved.body);
    expect(testCase).toMatchObject({
      name: "duplicate charge",
      llm: "recorded",
      sourceRunId: runId,
      expect: { status: "finished", trajectory: { tools: ["triage", "retrieve_docs", "summarize"] } },
    });
    expect(testCase.mocks.map((mock) => mock.tool)).toEqual(["triage", "retrieve_docs", "summarize"]);

    const record = await runSuite("support-triage");
    expect(record).toMatchObject({
      status: "passed",
      agentVersion: 1,
      totals: { passed: 1, failed: 0, skipped: 0 },
    });
    const [result] = record.cases;
    expect(result).toMatchObject({ caseId: testCase.id, status: "passed", failures: [], llmCalls: 4 });
    const run = (await server.request(`/api/runs/${result!.runId}`)).body;
    expect(run).toMatchObject({
      purpose: "test",
      testRunId: record.id,
      caseId: testCase.id,
      status: "finished",
    });

    const history = (await server.request("/api/runs?agentId=support-triage")).body.runs as { id: string }[];
    expect(history.map((entry) => entry.id)).toContain(runId);
    expect(history.map((entry) => entry.id)).not.toContain(result!.runId);
    const tests = (await server.request("/api/runs?agentId=support-triage&purpose=test")).body.runs as {
      id: string;
    }[];
    expect(tests.map((entry) => entry.id)).toEqual([result!.runId]);

    await expect
      .poll(() => updates.filter((update) => update.id === record.id).at(-1)?.status)
      .toBe("passed");
    expect(updates.some((update) => update.id === record.id && update.cases[0]?.status === "running")).toBe(
      true,
    );
  });

  it("fails a case with the reason once the agent is broken, per version", async () => {
    const agent = (await server.request("/api/agents/support-triage")).body;
    const spec = AgentSpec.parse(agent.spec);
    // retrieve_docs now waits for a person: a test run has nobody to approve it.
    const broken = {
      ...spec,
      tools: spec.tools.map((tool) =>
        tool.name === "retrieve_docs" ? { ...tool, requiresApproval: true } : tool,
      ),
    };
    const updated = await server.request("/api/agents/support-triage", {
      method: "PUT",
      json: { spec: broken, baseVersion: agent.version },
    });
    expect(updated.status).toBe(200);
    const record = await runSuite("support-triage");
    expect(record).toMatchObject({
      status: "failed",
      agentVersion: updated.body.version,
      totals: { failed: 1 },
    });
    const checks = record.cases[0]!.failures.map((failure) => failure.check);
    // The run stops for a person before retrieve_docs runs.
    expect(checks).toEqual(["status", "trajectory.exact", "answer.equals"]);
    expect(record.cases[0]!.failures[0]?.message).toBe(
      'The run paused for approval before calling retrieve_docs (it requires approval), expected "finished". A test cannot answer a pause: expect status "paused" if the agent should stop there.',
    );
    // The version before the break still passes.
    expect((await runSuite("support-triage", { agentVersion: agent.version })).status).toBe("passed");
  });

  it("reports a case naming an unknown tool per case, the others pass", async () => {
    const suite = (await server.request("/api/agents/support-triage/tests")).body;
    const [good] = suite.cases as TestCaseInput[];
    const odd: TestCaseInput = {
      ...good!,
      id: "odd",
      name: "odd",
      mocks: [{ tool: "no_such_tool", args: "any", output: {} }, ...(good!.mocks ?? [])],
    };
    await server.request("/api/agents/support-triage/tests", { method: "PUT", json: { cases: [good, odd] } });
    const record = await runSuite("support-triage", { agentVersion: 1 });
    expect(record.cases.map((result) => [result.caseId, result.status])).toEqual([
      [good!.id, "passed"],
      ["odd", "failed"],
    ]);
    expect(record.cases[1]!.failures[0]).toMatchObject({ check: "unknown_tool", expected: "no_such_tool" });
  });

  it("answers bad input with clear 4xx", async () => {
    const malformed = await server.request("/api/agents/support-triage/tests", {
      method: "PUT",
      json: { cases: [{ id: "x", name: "x", query: 42 }] },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.details.issues[0].path).toBe("$.cases[0].query");
    const unknownCase = await server.request("/api/agents/support-triage/test-runs", {
      method: "POST",
      json: { caseIds: ["nope"] },
    });
    expect(unknownCase.status).toBe(404);
    const unknownVersion = await server.request("/api/agents/support-triage/test-runs", {
      method: "POST",
      json: { agentVersion: 99 },
    });
    expect(unknownVersion.status).toBe(404);
    const empty = await server.request("/api/agents/email-approval/test-runs", { method: "POST", json: {} });
    await server.request("/api/agents/email-approval/tests", { method: "PUT", json: { cases: [] } });
    const none = await server.request("/api/agents/email-approval/test-runs", { method: "POST", json: {} });
    expect(none.status).toBe(409);
    expect([202, 409]).toContain(empty.status);
    expect((await server.request("/api/test-runs/tr_nope")).status).toBe(404);
    expect(
      (await server.request("/api/agents/support-triage/tests", { method: "POST", json: {} })).status,
    ).toBe(400);
    const otherAgent = await runOnce("cached-retrieval", "latest pricing");
    const wrong = await server.request("/api/agents/support-triage/tests", {
      method: "POST",
      json: { fromRunId: otherAgent },
    });
    expect(wrong.status).toBe(409);
  });

  it("deletes one case of a suite, and answers 404 for a case or agent it does not know", async () => {
    const cases = [
      { id: "keep", name: "keep", query: "keep me" },
      { id: "drop", name: "drop", query: "drop me" },
    ];
    await server.request("/api/agents/support-triage/tests", { method: "PUT", json: { cases } });
    const deleted = await server.request("/api/agents/support-triage/tests/drop", { method: "DELETE" });
    expect(deleted.status).toBe(204);
    const suite = (await server.request("/api/agents/support-triage/tests")).body;
    expect((suite.cases as { id: string }[]).map((testCase) => testCase.id)).toEqual(["keep"]);
    const again = await server.request("/api/agents/support-triage/tests/drop", { method: "DELETE" });
    expect(again.status).toBe(404);
    expect(again.body.message).toContain("drop");
    expect((await server.request("/api/agents/no-such-agent/tests/keep", { method: "DELETE" })).status).toBe(
      404,
    );
    expect(
      (await server.request("/api/agents/support-triage/tests/bad%20id", { method: "DELETE" })).status,
    ).toBe(400);
  });

  it("cancelling a test run cancels its runs", async () => {
    const spec = AgentSpec.parse({
      version: 1,
      id: "slow-agent",
      name: "Slow agent",
      tools: [{ name: "wait", impl: { kind: "mock", latencyMs: 60_000, output: { ok: true } } }],
    });
    expect((await server.request("/api/agents", { method: "POST", json: spec })).status).toBe(201);
    await server.request("/api/agents/slow-agent/tests", {
      method: "PUT",
      json: { cases: [{ id: "slow", name: "slow", query: "wait please", llm: "live" }] },
    });
    const started = await server.request("/api/agents/slow-agent/test-runs", { method: "POST", json: {} });
    const testRunId = started.body.testRunId as string;
    let runId: string | null | undefined;
    await expect
      .poll(async () => {
        const record = (await server.request(`/api/test-runs/${testRunId}`)).body as TestRunRecord;
        runId = record.cases[0]?.runId;
        return runId ? (await server.store.getRun(runId))?.status : undefined;
      })
      .toBe("running");
    expect((await server.request(`/api/test-runs/${testRunId}/cancel`, { method: "POST" })).status).toBe(200);
    expect((await waitForRun(server, runId!)).status).toBe("cancelled");
    await expect
      .poll(async () => ((await server.request(`/api/test-runs/${testRunId}`)).body as TestRunRecord).status)
      .toBe("cancelled");
  });
});
