import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { OfflineModel, runTestCase, runTestSuite } from "@waddle/planner";
import { AgentSpec, TestRunRecord, TestSuite, type TestCase } from "@waddle/protocol";
import {
  createLogger,
  createRunSetup,
  createRuntime,
  createWaddleServer,
  MemoryStore,
  readRunSettings,
  TestRunService,
} from "@waddle/server";
import type { BenchContext, BenchResult } from "../bench-report.js";
import { round } from "../format-report.js";
import { getSummary } from "../stats.js";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const AGENT_ID = "support-triage";
const CONCURRENCY = 8;

/** `count` cases cycled from the example suite (recorded model replies, recorded tool results as mocks). */
function getCases(count: number): TestCase[] {
  const file = path.join(ROOT, `apps/examples/agents/${AGENT_ID}.tests.json`);
  const suite = TestSuite.parse(JSON.parse(readFileSync(file, "utf8")));
  return Array.from({ length: count }, (_, index) => ({
    ...suite.cases[index % suite.cases.length]!,
    id: `case-${index + 1}`,
  }));
}

function getSpec(): AgentSpec {
  return AgentSpec.parse(
    JSON.parse(readFileSync(path.join(ROOT, `apps/examples/agents/${AGENT_ID}.json`), "utf8")),
  );
}

/** The planner alone: each case through `runTestCase`, `CONCURRENCY` at once. */
async function timePlanner(
  cases: readonly TestCase[],
): Promise<{ ms: number; passed: number; perCase: number[] }> {
  const spec = getSpec();
  const started = performance.now();
  const { results, totals } = await runTestSuite({
    cases,
    concurrency: CONCURRENCY,
    runCase: async (testCase) => (await runTestCase({ spec, testCase, llm: new OfflineModel() })).result,
  });
  return {
    ms: performance.now() - started,
    passed: totals.passed,
    perCase: results.map((r) => r.durationMs),
  };
}

/** What `npx waddle test` runs in-process: the server's runtime and test runner over an in-memory store. */
async function timeInProcess(
  cases: readonly TestCase[],
): Promise<{ ms: number; passed: number; perCase: number[] }> {
  const env = { OPENAI_API_KEY: "" } as NodeJS.ProcessEnv;
  const logger = createLogger({ level: "silent" });
  const setup = await createRunSetup({
    env,
    settings: readRunSettings(env, ROOT),
    exampleToolsDir: path.join(ROOT, "apps/examples/tools"),
    logger,
  });
  const store = new MemoryStore();
  const runtime = await createRuntime({
    env,
    store,
    setup,
    exampleAgentsDir: null,
    maxConcurrentRuns: CONCURRENCY,
  });
  await store.createAgent({ spec: getSpec() });
  await store.tests.putSuite(AGENT_ID, cases);
  let finish: (record: TestRunRecord) => void = () => undefined;
  const done = new Promise<TestRunRecord>((resolve) => (finish = resolve));
  const tests = new TestRunService({
    store,
    runs: runtime.runs,
    hub: runtime.hub,
    registry: runtime.testCases,
    logger,
    onUpdate: (record) => record.status !== "running" && finish(record),
  });
  const started = performance.now();
  await tests.start(AGENT_ID, { concurrency: CONCURRENCY });
  const record = await done;
  const ms = performance.now() - started;
  await runtime.runs.close();
  await setup.mcp.close();
  await store.close();
  return { ms, passed: record.totals.passed, perCase: record.cases.map((result) => result.durationMs) };
}

/** A server with SQLite, over REST: `POST /api/agents/:id/test-runs`, then `GET /api/test-runs/:id` until it ends. */
async function timeServer(
  cases: readonly TestCase[],
): Promise<{ ms: number; passed: number; perCase: number[] }> {
  const dir = mkdtempSync(path.join(tmpdir(), "waddle-bench-tests-"));
  const server = await createWaddleServer({
    port: 0,
    dataDir: dir,
    designerDir: null,
    logLevel: "silent",
    env: {},
    maxConcurrentRuns: CONCURRENCY,
  });
  try {
    const send = async (method: string, pathname: string, body?: unknown) => {
      const response = await fetch(`${server.url}${pathname}`, {
        method,
        ...(body === undefined
          ? {}
          : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
      });
      if (!response.ok) throw new Error(`${method} ${pathname}: ${response.status} ${await response.text()}`);
      return (await response.json()) as unknown;
    };
    await send("PUT", `/api/agents/${AGENT_ID}/tests`, { cases });
    const started = performance.now();
    const { testRunId } = (await send("POST", `/api/agents/${AGENT_ID}/test-runs`, {
      concurrency: CONCURRENCY,
    })) as {
      testRunId: string;
    };
    for (;;) {
      const record = TestRunRecord.parse(await send("GET", `/api/test-runs/${testRunId}`));
      if (record.status !== "running") {
        const ms = performance.now() - started;
        return { ms, passed: record.totals.passed, perCase: record.cases.map((result) => result.durationMs) };
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A 100-case suite of the support-triage agent with its recorded model replies and recorded tool results
 * (mocks), cases {@link CONCURRENCY} at once: through the planner alone, as `npx waddle test` runs it
 * in-process, and on a server with SQLite over REST. Goal: the suite in under 10 s on this machine.
 */
export async function runTestsBench(context: BenchContext): Promise<BenchResult> {
  const count = context.quick ? 20 : 100;
  const cases = getCases(count);
  const rows: (string | number)[][] = [];
  const targets: BenchResult["targets"] = [];
  for (const [label, time] of [
    ["planner only (runTestCase)", timePlanner],
    ["npx waddle test, in-process (MemoryStore)", timeInProcess],
    ["server, SQLite, over REST", timeServer],
  ] as const) {
    context.log(`tests: ${label}`);
    const { ms, passed, perCase } = await time(cases);
    const summary = getSummary(perCase);
    rows.push([label, count, passed, round(ms / 1000, 2), round(summary.median, 1), round(summary.p90, 1)]);
    targets.push({
      target: `${label}: ${count} cases < 10 s`,
      measured: `${round(ms / 1000, 2)} s`,
      met: ms < 10_000,
    });
  }
  return {
    tables: [
      {
        title: `A ${count}-case suite, recorded LLM and mocks, ${CONCURRENCY} cases at once`,
        columns: ["path", "cases", "passed", "suite s", "case median ms", "case p90 ms"],
        rows,
      },
    ],
    lines: [],
    targets,
    notes: [
      "Each case replays the support-triage agent's recorded replies (4 model calls) and serves its three tool results from mocks: no model and no tool runs.",
      "Case times are each case's run (planner start to end); the suite time includes queueing, storing events and deciding every case.",
    ],
  };
}
