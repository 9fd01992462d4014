import { TestCase, TestRunRecord, type RunRecord } from "@waddle/protocol";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";
import { waitForRun } from "../testing/wait-for-run.js";

const AGENT = "email-approval";
const QUERY = "Email Dana that the Q3 report is ready for review";

let server: TestServer;
let socket: Socket;

beforeAll(async () => {
  server = await startTestServer({ maxConcurrentRuns: 4 });
  socket = connect(server.url, { transports: ["websocket"], reconnection: false });
  await new Promise<void>((resolve, reject) => {
    socket.on("connect", resolve);
    socket.on("connect_error", reject);
  });
  await socket.emitWithAck("watch_agent", { agentId: AGENT });
});
afterAll(async () => {
  socket.disconnect();
  await server.stop();
});

/** Resolves with the test run once it has ended: told by `test_run_updated`, read once in case it already has. */
function waitForTestRun(testRunId: string): Promise<TestRunRecord> {
  return new Promise((resolve, reject) => {
    const done = (record: TestRunRecord) => {
      socket.off("test_run_updated", onUpdate);
      resolve(record);
    };
    const onUpdate = (value: unknown) => {
      const record = TestRunRecord.parse(value);
      if (record.id === testRunId && record.status !== "running") done(record);
    };
    socket.on("test_run_updated", onUpdate);
    server
      .request(`/api/test-runs/${testRunId}`)
      .then(({ body }) => {
        const record = TestRunRecord.parse(body);
        if (record.status !== "running") done(record);
      })
      .catch(reject);
  });
}

/** A real run of the agent left waiting for approval of send_email, saved as a case (no name given). */
async function savePausedRun(): Promise<{ runId: string; testCase: TestCase }> {
  const started = await server.request("/api/runs", {
    method: "POST",
    json: { agentId: AGENT, query: QUERY },
  });
  expect(started.status).toBe(202);
  const runId = started.body.runId as string;
  await waitForRun(server, runId, new Set(["paused"]));
  const saved = await server.request(`/api/agents/${AGENT}/tests`, {
    method: "POST",
    json: { fromRunId: runId },
  });
  expect(saved.status, saved.text).toBe(201);
  return { runId, testCase: TestCase.parse(saved.body) };
}

const getRun = async (runId: string) => (await server.request(`/api/runs/${runId}`)).body as RunRecord;

describe("test cases whose run pauses", () => {
  it("are judged, then their runs are ended with the reason; the one not expecting the pause says on what", async () => {
    await server.request(`/api/agents/${AGENT}/tests`, { method: "PUT", json: { cases: [] } });
    const { runId: sourceRunId, testCase } = await savePausedRun();
    expect(testCase.expect.status).toBe("paused");
    const notExpecting: TestCase = {
      ...testCase,
      id: "expects-finish",
      name: "expects finish",
      expect: { ...testCase.expect, status: "finished" },
    };
    const put = await server.request(`/api/agents/${AGENT}/tests`, {
      method: "PUT",
      json: { cases: [testCase, notExpecting] },
    });
    expect(put.status, put.text).toBe(200);

    const started = await server.request(`/api/agents/${AGENT}/test-runs`, { method: "POST", json: {} });
    expect(started.status).toBe(202);
    const record = await waitForTestRun(started.body.testRunId as string);
    expect(record.cases.map((result) => [result.caseId, result.status])).toEqual([
      [testCase.id, "passed"],
      ["expects-finish", "failed"],
    ]);
    const [failure] = record.cases[1]!.failures;
    expect(failure).toMatchObject({ check: "status", expected: "finished", actual: "paused" });
    expect(failure?.message).toBe(
      'The run paused for approval before calling send_email (it requires approval), expected "finished". A test cannot answer a pause: expect status "paused" if the agent should stop there.',
    );

    // Neither case's run is left waiting: each was cancelled before the test run ended, saying which test
    // run ended it and why.
    const [expected, failed] = await Promise.all(record.cases.map((result) => getRun(result.runId!)));
    expect(expected).toMatchObject({ status: "cancelled", purpose: "test" });
    expect(JSON.stringify(expected!.result)).toContain(
      `Ended by test run ${record.id} once its case \\"${testCase.name}\\" was judged: the case expected this pause`,
    );
    expect(failed).toMatchObject({ status: "cancelled", purpose: "test" });
    expect(JSON.stringify(failed!.result)).toContain(
      "the case failed: the run paused for approval before calling send_email",
    );

    // History holds the real paused run only; the test runs are listed when asked for, none active.
    const history = (await server.request(`/api/runs?agentId=${AGENT}`)).body.runs as RunRecord[];
    expect(history.map((run) => [run.id, run.status])).toEqual([[sourceRunId, "paused"]]);
    const tests = (await server.request(`/api/runs?agentId=${AGENT}&purpose=test`)).body.runs as RunRecord[];
    expect(tests.map((run) => run.status)).toEqual(["cancelled", "cancelled"]);
    await server.request(`/api/runs/${sourceRunId}/cancel`, { method: "POST" });
  });
});

describe("case names in one suite", () => {
  it("two cases with one name are refused with duplicate_case_name; a default name is made free", async () => {
    const cases = [
      { id: "first", name: "same", query: "one" },
      { id: "second", name: "same ", query: "two" },
    ];
    const refused = await server.request(`/api/agents/${AGENT}/tests`, { method: "PUT", json: { cases } });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      code: "duplicate_case_name",
      details: { name: "same", indices: [0, 1], caseIds: ["first", "second"] },
    });
    expect(refused.body.message).toBe(
      'Cases 1 and 2 of the suite are both named "same": give each case its own name (or delete one).',
    );

    await server.request(`/api/agents/${AGENT}/tests`, { method: "PUT", json: { cases: [] } });
    const first = await savePausedRun();
    const second = await savePausedRun();
    expect([first.testCase.name, second.testCase.name]).toEqual([QUERY, `${QUERY} (2)`]);
    const chosen = await server.request(`/api/agents/${AGENT}/tests`, {
      method: "POST",
      json: { fromRunId: second.runId, name: QUERY },
    });
    expect(chosen.status).toBe(422);
    expect(chosen.body).toMatchObject({ code: "duplicate_case_name", details: { name: QUERY } });
    expect(chosen.body.message).toContain("save this run under another name");
    const suite = (await server.request(`/api/agents/${AGENT}/tests`)).body.cases as TestCase[];
    expect(suite).toHaveLength(2);
    for (const { runId } of [first, second])
      await server.request(`/api/runs/${runId}/cancel`, { method: "POST" });
  });
});
