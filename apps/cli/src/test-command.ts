import { writeFileSync } from "node:fs";
import path from "node:path";
import {
  Slug,
  TestRunRecord,
  type AgentSpec,
  type TestCase,
  type TestCaseResult,
  type TestSuite,
} from "@waddle/protocol";
import {
  createLogger,
  createRunSetup,
  createRuntime,
  createServerLlm,
  MemoryStore,
  readRunSettings,
  SqliteStore,
  TestRunService,
} from "@waddle/server";
import { AgentSourceError, EXAMPLES_DIR, loadAgentSpec } from "./agent-source.js";
import { UsageError, type CliIo } from "./cli-io.js";
import { createJunitReport } from "./junit-report.js";
import { readJsonFile } from "./read-spec-file.js";
import { ServerClient, ServerRequestError } from "./server-client.js";
import { readTestSuite } from "./test-suite-source.js";

export interface TestCommandOptions {
  source: string;
  io: CliIo;
  dataDir: string;
  server?: string;
  token?: string;
  testsFile?: string;
  version?: string;
  junit?: string;
  grep?: string;
}

/** The options with `--version` read. */
type Resolved = Omit<TestCommandOptions, "version"> & { version: number | undefined };

/** How often a server's test run is read while it goes. */
const POLL_MS = 200;

/**
 * `waddle test`: runs an agent's suite in this process (the server's runtime and test runner over an
 * in-memory store) or on a server, prints a line per case as it ends and a summary, and writes JUnit XML.
 * Exit 0 when every case passed (or was skipped), 1 when one failed, 2 on bad input.
 */
export async function testCommand(options: TestCommandOptions): Promise<number> {
  const version = readVersion(options.version);
  const started = Date.now();
  const printer = createCasePrinter(options.io);
  const record = options.server
    ? await testOnServer({ ...options, server: options.server, version, printer }).catch(asUsageError)
    : await testInProcess({ ...options, version, printer });
  const durationMs = Date.now() - started;
  printer.flush(record);
  const { passed, failed, skipped } = record.totals;
  options.io.stdout.write(
    `\n${failed === 0 ? "PASS" : "FAIL"} ${record.agentId}@v${record.agentVersion}: ${passed} passed, ${failed} failed, ${skipped} skipped in ${(durationMs / 1000).toFixed(1)} s\n`,
  );
  if (options.junit) {
    const file = path.resolve(options.io.cwd, options.junit);
    writeFileSync(file, createJunitReport(record, { durationMs }));
    options.io.stdout.write(`JUnit report: ${options.junit}\n`);
  }
  return failed > 0 || record.status === "cancelled" || record.status === "interrupted" ? 1 : 0;
}

/** A server's 4xx (unknown agent, bad suite, no cases) is bad input: exit 2, with the server's words. */
function asUsageError(error: unknown): never {
  if (error instanceof ServerRequestError && error.status >= 400 && error.status < 500)
    throw new UsageError(error.message);
  throw error;
}

function readVersion(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const version = Number(value);
  if (!Number.isInteger(version) || version < 1)
    throw new UsageError(`--version must be a saved version number (1, 2, …), not ${JSON.stringify(value)}.`);
  return version;
}

/** Cases whose name or id contains `grep` (any case); all without it. Refuses a filter that keeps none. */
function filterCases(cases: readonly TestCase[], grep: string | undefined): TestCase[] {
  if (grep === undefined) return [...cases];
  const needle = grep.toLowerCase();
  const kept = cases.filter((testCase) => `${testCase.name}\n${testCase.id}`.toLowerCase().includes(needle));
  if (kept.length === 0) throw new UsageError(`No test case matches --grep ${JSON.stringify(grep)}.`);
  return kept;
}

interface CasePrinter {
  update(record: TestRunRecord): void;
  flush(record: TestRunRecord): void;
}

/** Prints each case once, when it has ended: ✓/✗/- with its name, time and calls, and each failed check. */
function createCasePrinter(io: CliIo): CasePrinter {
  const printed = new Set<string>();
  const print = (result: TestCaseResult) => {
    if (printed.has(result.caseId)) return;
    if (result.status !== "passed" && result.status !== "failed" && result.status !== "skipped") return;
    printed.add(result.caseId);
    const mark = result.status === "passed" ? "✓" : result.status === "failed" ? "✗" : "-";
    const stats = `${result.durationMs} ms, ${result.llmCalls} model calls, ${result.tokens} tokens`;
    io.stdout.write(
      `${mark} ${result.name ?? result.caseId} (${result.caseId}) ${result.status} — ${stats}\n`,
    );
    for (const failure of result.failures)
      io.stdout.write(`    ${failure.check}: ${failure.message ?? ""}\n`);
    for (const skipped of result.skippedChecks ?? [])
      io.stdout.write(`    ${skipped.check} skipped: ${skipped.reason}\n`);
  };
  return {
    update: (record) => record.cases.forEach(print),
    flush: (record) => record.cases.forEach(print),
  };
}

async function testInProcess(options: Resolved & { printer: CasePrinter }): Promise<TestRunRecord> {
  const { io } = options;
  const spec = await loadSpec(options);
  const suite = readTestSuite({
    testsFile: options.testsFile,
    source: options.source,
    agentId: spec.id,
    cwd: io.cwd,
  });
  if (suite === undefined) {
    throw new UsageError(`No test suite for "${spec.id}": pass --tests FILE (e.g. ${spec.id}.tests.json).`);
  }
  const cases = filterCases(suite.cases, options.grep);
  const env = io.env as NodeJS.ProcessEnv;
  const logger = createLogger({ level: "silent" });
  const setup = await createRunSetup({
    env,
    settings: readRunSettings(env, io.cwd),
    exampleToolsDir: path.join(EXAMPLES_DIR, "tools"),
    logger,
  });
  const store = new MemoryStore();
  const runtime = await createRuntime({
    env,
    store,
    setup,
    exampleAgentsDir: path.join(EXAMPLES_DIR, "agents"),
    maxConcurrentRuns: 4,
  });
  try {
    // The spec under test is version 1 here, whatever example of that id the store was seeded with.
    await store.deleteAgent(spec.id);
    await store.createAgent({ spec });
    await store.tests.putSuite(spec.id, cases);
    let finished: (record: TestRunRecord) => void = () => undefined;
    const done = new Promise<TestRunRecord>((resolve) => (finished = resolve));
    const tests = new TestRunService({
      store,
      runs: runtime.runs,
      hub: runtime.hub,
      registry: runtime.testCases,
      logger,
      createJudgeLlm: (agent, model) =>
        createServerLlm({
          config: model ? { ...agent.llm, model } : agent.llm,
          path: "llm",
          env,
          policy: setup.llmPolicy,
          redactor: setup.redactor,
          logger,
          ...(setup.priceTable ? { priceTable: setup.priceTable } : {}),
        }),
      onUpdate: (record) => {
        options.printer.update(record);
        if (record.status !== "running") finished(record);
      },
    });
    await tests.start(spec.id, {});
    const record = await done;
    // In-process the version is the spec given; report the one asked for when there was one.
    return options.version ? { ...record, agentVersion: options.version } : record;
  } finally {
    await runtime.runs.close();
    await setup.mcp.close();
    await store.close();
  }
}

/** The spec to test in-process: a file, an agent id (of the local data folder or the examples), at a version. */
async function loadSpec(options: Resolved): Promise<AgentSpec> {
  try {
    const spec = await loadAgentSpec({
      source: options.source,
      cwd: options.io.cwd,
      dataDir: options.dataDir,
    });
    if (options.version === undefined) return spec;
    const database = path.join(options.dataDir, "waddle.db");
    const store = new SqliteStore(database);
    try {
      const record = await store.getAgentVersion(spec.id, options.version);
      if (!record) throw new UsageError(`"${spec.id}" has no version ${options.version} in ${database}.`);
      return record.spec;
    } finally {
      await store.close();
    }
  } catch (error) {
    if (error instanceof AgentSourceError) throw new UsageError(error.message);
    throw error;
  }
}

async function testOnServer(
  options: Resolved & { server: string; printer: CasePrinter },
): Promise<TestRunRecord> {
  const client = new ServerClient(options.server, options.token);
  const agentId = getAgentId(options);
  const given =
    options.testsFile || options.source.endsWith(".json") ? readSuiteFile(options, agentId) : undefined;
  if (given) await client.request("PUT", `/api/agents/${agentId}/tests`, { cases: given.cases });
  const suite = (await client.request("GET", `/api/agents/${agentId}/tests`)).json as TestSuite;
  const cases = filterCases(suite.cases, options.grep);
  const started = await client.request("POST", `/api/agents/${agentId}/test-runs`, {
    ...(options.version ? { agentVersion: options.version } : {}),
    ...(options.grep ? { caseIds: cases.map((testCase) => testCase.id) } : {}),
  });
  const { testRunId } = started.json as { testRunId: string };
  for (;;) {
    const record = TestRunRecord.parse((await client.request("GET", `/api/test-runs/${testRunId}`)).json);
    options.printer.update(record);
    if (record.status !== "running") return record;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

function readSuiteFile(options: Resolved, agentId: string): TestSuite | undefined {
  return readTestSuite({
    testsFile: options.testsFile,
    source: options.source,
    agentId,
    cwd: options.io.cwd,
  });
}

/** The agent id on the server: the source itself, or the `id` of a spec file. */
function getAgentId(options: Resolved): string {
  if (!options.source.endsWith(".json")) {
    if (!Slug.safeParse(options.source).success)
      throw new UsageError(`"${options.source}" is neither a spec file nor an agent id.`);
    return options.source;
  }
  let json: unknown;
  try {
    json = readJsonFile(options.source, options.io.cwd);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const id = Slug.safeParse((json as { id?: unknown } | undefined)?.id);
  if (!id.success) throw new UsageError(`${options.source} has no agent id.`);
  return id.data;
}
