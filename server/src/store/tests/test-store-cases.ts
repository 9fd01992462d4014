import assert from "node:assert/strict";
import { TestCase, type TestRunRecord } from "@waddle/protocol";
import { withStore, type StoreConformanceCase } from "../store-claim-cases.js";

const testCase = (id: string) => TestCase.parse({ id, name: `case ${id}`, query: "What is due?" });

const testRun = (id: string, agentId: string, createdAt: string): TestRunRecord => ({
  id,
  agentId,
  agentVersion: 1,
  status: "running",
  totals: { passed: 0, failed: 0, skipped: 0 },
  cases: [],
  createdAt,
  finishedAt: null,
});

/** Suites and test runs: saved whole, read back equal, listed by agent newest first. */
export const testStoreCases: readonly StoreConformanceCase[] = [
  {
    name: "tests: a suite is replaced whole and read back",
    run: (make) =>
      withStore(make, async (store) => {
        assert.equal(await store.tests.getSuite("helper"), undefined);
        await store.tests.putSuite("helper", [testCase("a"), testCase("b")]);
        await store.tests.putSuite("helper", [testCase("c")]);
        const suite = await store.tests.getSuite("helper");
        assert.deepEqual(suite?.cases, [testCase("c")]);
        assert.equal(suite?.agentId, "helper");
        assert.equal(await store.tests.getSuite("other"), undefined);
      }),
  },
  {
    name: "tests: test runs are saved, rewritten and listed per agent, newest first",
    run: (make) =>
      withStore(make, async (store) => {
        await store.tests.saveTestRun(testRun("tr_1", "helper", "2026-01-01T00:00:01.000Z"));
        await store.tests.saveTestRun(testRun("tr_2", "helper", "2026-01-01T00:00:02.000Z"));
        await store.tests.saveTestRun(testRun("tr_3", "other", "2026-01-01T00:00:03.000Z"));
        const done = { ...testRun("tr_1", "helper", "2026-01-01T00:00:01.000Z"), status: "passed" as const };
        await store.tests.saveTestRun(done);
        assert.deepEqual(await store.tests.getTestRun("tr_1"), done);
        assert.equal(await store.tests.getTestRun("tr_9"), undefined);
        const listed = await store.tests.listTestRuns("helper");
        assert.deepEqual(
          listed.map((record) => [record.id, record.status]),
          [
            ["tr_2", "running"],
            ["tr_1", "passed"],
          ],
        );
        assert.equal((await store.tests.listTestRuns("helper", 1)).length, 1);
      }),
  },
  {
    name: "tests: runs of test cases are listed only when asked",
    run: (make) =>
      withStore(make, async (store) => {
        const base = { agentId: "helper", agentVersion: 1, query: "q", status: "queued" as const };
        await store.createRun({ ...base, id: "run_plain" });
        await store.createRun({
          ...base,
          id: "run_case",
          origin: { purpose: "test", testRunId: "tr_1", caseId: "a" },
        });
        const ids = async (purpose?: "run" | "test") =>
          (await store.listRuns(purpose ? { purpose } : {})).map((run) => run.id);
        assert.deepEqual(await ids("run"), ["run_plain"]);
        assert.deepEqual(await ids("test"), ["run_case"]);
        assert.deepEqual(await ids(), ["run_case", "run_plain"]);
        const run = await store.getRun("run_case");
        assert.deepEqual([run?.purpose, run?.testRunId, run?.caseId], ["test", "tr_1", "a"]);
      }),
  },
];
