import type { TestRunRecord } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../api/api-error.js";
import { createTestsStore, type TestsStoreApi } from "./tests-store.js";

const record = (id: string, status: TestRunRecord["status"], agentId = "orders"): TestRunRecord => ({
  id,
  agentId,
  agentVersion: 1,
  status,
  totals: { passed: status === "passed" ? 1 : 0, failed: 0, skipped: 0 },
  cases: [
    {
      caseId: "case_1",
      runId: status === "running" ? null : "run_1",
      status: status === "running" ? "running" : "passed",
      failures: [],
      llmCalls: 3,
      tokens: 10,
      costUsd: 0,
      durationMs: 5,
    },
  ],
  createdAt: "2026-11-27T00:00:00.000Z",
  finishedAt: status === "running" ? null : "2026-11-27T00:00:01.000Z",
});

/** The store over an API that answers from these values (only what the tab calls). */
function createStore(options: { started?: TestRunRecord } = {}) {
  const calls: string[] = [];
  const api = {
    getTestSuite: () => Promise.resolve({ version: 1, cases: [] }),
    listVersions: () => Promise.resolve([]),
    listTestRuns: () => Promise.resolve([]),
    startTestRun: (agentId: string, body: unknown) => {
      calls.push(`start ${agentId} ${JSON.stringify(body)}`);
      return Promise.resolve({ testRunId: options.started?.id ?? "tr_x" });
    },
    getTestRun: (id: string) =>
      options.started?.id === id ? Promise.resolve(options.started) : Promise.reject(new Error(`no ${id}`)),
  } as unknown as TestsStoreApi;
  return { store: createTestsStore(api), calls };
}

describe("the Tests tab's store", () => {
  it("starts a test run, shows it, and keeps it live from test_run_updated", async () => {
    const running = record("tr_1", "running");
    const { store, calls } = createStore({ started: running });
    await store.getState().load("orders");
    await store.getState().runSuite({ agentVersion: 2, caseIds: ["case_1"] });
    expect(calls).toEqual(['start orders {"agentVersion":2,"caseIds":["case_1"]}']);
    expect(store.getState().shownId).toBe("tr_1");
    expect(store.getState().testRuns.map((run) => [run.id, run.status])).toEqual([["tr_1", "running"]]);

    store.getState().applyRecord(record("tr_1", "passed"));
    expect(store.getState().records.tr_1?.cases[0]?.status).toBe("passed");
    expect(store.getState().testRuns.map((run) => [run.id, run.status])).toEqual([["tr_1", "passed"]]);
    // another agent's test runs are not this tab's
    store.getState().applyRecord(record("tr_other", "passed", "billing"));
    expect(store.getState().testRuns).toHaveLength(1);
    // one started elsewhere (the CLI, another tab) is listed first
    store.getState().applyRecord(record("tr_2", "running"));
    expect(store.getState().testRuns.map((run) => run.id)).toEqual(["tr_2", "tr_1"]);
  });

  it("shows the server's refusal of two cases with one name, and keeps the cases as they were", async () => {
    const cases = [
      { id: "a", name: "same", query: "one", toolContextKeys: [], mocks: [], llm: "live", expect: {} },
      { id: "b", name: "same", query: "two", toolContextKeys: [], mocks: [], llm: "live", expect: {} },
    ];
    const message =
      'Cases 1 and 2 of the suite are both named "same": give each case its own name (or delete one).';
    const api = {
      getTestSuite: () => Promise.resolve({ version: 1, cases }),
      listVersions: () => Promise.resolve([]),
      listTestRuns: () => Promise.resolve([]),
      putTestSuite: () =>
        Promise.reject(new ApiError("duplicate_case_name", message, 422, { name: "same", indices: [0, 1] })),
    } as unknown as TestsStoreApi;
    const store = createTestsStore(api);
    await store.getState().load("orders");
    expect(await store.getState().setExpect("a", { status: "finished" })).toBe(false);
    expect(store.getState().error).toBe(message);
    expect(store.getState().cases.map((testCase) => testCase.expect)).toEqual([{}, {}]);
  });

  it("keeps a refused request's words as the tab's error", async () => {
    const { store } = createStore();
    await store.getState().load("orders");
    await store.getState().show("tr_missing");
    expect(store.getState().error).toContain("no tr_missing");
    store.getState().dismissError();
    expect(store.getState().error).toBeNull();
  });
});
