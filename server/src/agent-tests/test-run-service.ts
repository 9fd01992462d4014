import { randomBytes } from "node:crypto";
import {
  createTestCaseFromRun,
  evaluateTestCase,
  getRunFacts,
  type JudgeLlmFactory,
  type LlmClient,
} from "@waddle/planner";
import {
  getTestTotals,
  type AgentSpec,
  type SaveTestRequest,
  type StartTestRunRequest,
  type TestCase,
  type TestCaseResult,
  type TestRunRecord,
} from "@waddle/protocol";
import { createRunId, type RunCommands } from "../runs/run-service.js";
import type { RunEventHub } from "../runs/run-event-hub.js";
import { ApiError, notFound } from "../shared/api-error.js";
import type { Logger } from "../shared/logger.js";
import type { WaddleStore } from "../store/waddle-store.js";
import type { TestCaseRegistry } from "./test-case-planner-factory.js";
import { waitForRunEnd } from "./wait-for-run-end.js";
import { assertUniqueCaseNames, getFreeCaseName } from "./case-names.js";
import { endPausedCaseRun, getPausedCaseReason } from "./end-paused-case-run.js";

/** Cases of one test run that run at once unless the request says otherwise. */
export const DEFAULT_TEST_CONCURRENCY = 4;
/** Most cases a suite holds. */
export const MAX_SUITE_CASES = 1_000;
/** Test runs per agent looked at for ones left running by a stopped process (the newest). */
const RECOVER_SCAN_LIMIT = 200;

export interface TestRunServiceOptions {
  store: WaddleStore;
  runs: RunCommands;
  hub: RunEventHub;
  registry: TestCaseRegistry;
  logger: Logger;
  /** The judge's model for an agent (its endpoint, or `model` on it); none: judge checks are skipped. */
  createJudgeLlm?: (spec: AgentSpec, model: string | undefined) => LlmClient;
  /** Told of every change of a test run (sent to `watch_agent` watchers as `test_run_updated`). */
  onUpdate?: (record: TestRunRecord) => void;
}

interface ActiveTestRun {
  record: TestRunRecord;
  cancelled: boolean;
  /** Saves go one after the other, each writing the record as it is then: the last write is the latest. */
  saving: Promise<void>;
}

const createId = (prefix: string) => `${prefix}_${randomBytes(6).toString("hex")}`;

/**
 * Tests from runs on the server: saves runs as cases, and runs suites as ordinary runs marked `purpose:
 * "test"` (the planner factory serves their mocks), a few at once, deciding each case from its stored
 * events with the planner's `evaluateTestCase` as it ends, and telling watchers of every change.
 */
export class TestRunService {
  private readonly active = new Map<string, ActiveTestRun>();

  constructor(private readonly options: TestRunServiceOptions) {}

  /** Saves a run of the agent as a new case at the end of its suite. */
  async saveFromRun(agentId: string, request: SaveTestRequest): Promise<TestCase> {
    const { store } = this.options;
    await this.requireAgent(agentId);
    const run = await store.getRun(request.fromRunId);
    if (!run) throw notFound("Run", request.fromRunId);
    if (run.agentId !== agentId) {
      throw new ApiError(
        "invalid_state",
        `Run "${run.id}" is a run of "${run.agentId}", not of "${agentId}".`,
        {
          reason: "other_agent",
        },
      );
    }
    if (run.status === "queued" || run.status === "running") {
      throw new ApiError(
        "invalid_state",
        `Run "${run.id}" is still ${run.status}: save it once it has ended.`,
        {
          reason: "run_not_ended",
        },
      );
    }
    const version = await store.getAgentVersion(run.agentId, run.agentVersion);
    const recorded = createTestCaseFromRun({
      run: {
        id: run.id,
        query: run.query,
        status: run.status,
        ...(run.toolContextKeys ? { toolContextKeys: run.toolContextKeys } : {}),
        ...(run.result?.kind === "finish" ? { answer: run.result.payload.answer } : {}),
      },
      events: await store.listEvents(run.id),
      id: createId("case"),
      ...(request.llm ? { llm: request.llm } : {}),
      ...(version ? { toolNames: version.spec.tools.map((tool) => tool.name) } : {}),
    });
    const cases = (await store.tests.getSuite(agentId))?.cases ?? [];
    // A name asked for must be free; the default one (the query) is made free.
    const name = getFreeCaseName({ name: request.name ?? recorded.name, chosen: !!request.name, cases });
    const testCase = { ...recorded, name };
    if (cases.length >= MAX_SUITE_CASES) {
      throw new ApiError(
        "invalid_state",
        `The suite of "${agentId}" holds ${MAX_SUITE_CASES} cases already.`,
        {
          reason: "suite_full",
        },
      );
    }
    await store.tests.putSuite(agentId, [...cases, testCase]);
    return testCase;
  }

  /** Starts a test run of the suite (or of `caseIds`) on the latest or given version; answers at once. */
  async start(agentId: string, request: StartTestRunRequest): Promise<{ testRunId: string }> {
    const { store } = this.options;
    const latest = await this.requireAgent(agentId);
    const agentVersion = request.agentVersion ?? latest.version;
    const agent = await store.getAgentVersion(agentId, agentVersion);
    if (!agent)
      throw new ApiError("not_found", `Agent "${agentId}" has no version ${agentVersion}.`, { agentVersion });
    const suite = (await store.tests.getSuite(agentId))?.cases ?? [];
    const cases = request.caseIds ? pickCases(suite, request.caseIds) : suite;
    if (cases.length === 0) {
      throw new ApiError("invalid_state", `"${agentId}" has no test cases: save a run as a test first.`, {
        reason: "no_cases",
      });
    }
    const record: TestRunRecord = {
      id: createId("tr"),
      agentId,
      agentVersion,
      status: "running",
      totals: { passed: 0, failed: 0, skipped: 0 },
      cases: cases.map((testCase) => ({
        caseId: testCase.id,
        name: testCase.name,
        runId: null,
        status: "queued",
        failures: [],
        llmCalls: 0,
        tokens: 0,
        costUsd: 0,
        durationMs: 0,
      })),
      createdAt: new Date().toISOString(),
      finishedAt: null,
    };
    await this.save(record);
    const active: ActiveTestRun = { record, cancelled: false, saving: Promise.resolve() };
    this.active.set(record.id, active);
    void this.execute(active, { spec: agent.spec, cases, concurrency: request.concurrency });
    return { testRunId: record.id };
  }

  async get(testRunId: string): Promise<TestRunRecord> {
    const record = await this.options.store.tests.getTestRun(testRunId);
    if (!record) throw notFound("Test run", testRunId);
    return record;
  }

  /**
   * Marks test runs that a previous process left `running` as `interrupted` (nothing runs them any more:
   * a test run is driven by the process that started it), their unfinished cases skipped. Call once at
   * start, before any test run starts here. Answers the ids marked.
   */
  async recoverTestRuns(): Promise<string[]> {
    const { store } = this.options;
    const marked: string[] = [];
    for (const agent of await store.listAgents()) {
      for (const record of await store.tests.listTestRuns(agent.id, RECOVER_SCAN_LIMIT)) {
        if (record.status !== "running" || this.active.has(record.id)) continue;
        const cases = record.cases.map(skipUnfinished);
        await this.save({
          ...record,
          cases,
          totals: getTestTotals(cases),
          status: "interrupted",
          finishedAt: new Date().toISOString(),
        });
        marked.push(record.id);
      }
    }
    return marked;
  }

  /** Replaces the agent's suite; two cases with one name are refused (`duplicate_case_name`). */
  async putSuite(agentId: string, cases: readonly TestCase[]): Promise<TestCase[]> {
    await this.requireAgent(agentId);
    assertUniqueCaseNames(cases);
    return (await this.options.store.tests.putSuite(agentId, cases)).cases;
  }

  /** Removes one case from the agent's suite; answers the suite left. */
  async deleteCase(agentId: string, caseId: string): Promise<TestCase[]> {
    const { store } = this.options;
    await this.requireAgent(agentId);
    const cases = (await store.tests.getSuite(agentId))?.cases ?? [];
    if (!cases.some((testCase) => testCase.id === caseId)) throw notFound("Test case", caseId);
    const saved = await store.tests.putSuite(
      agentId,
      cases.filter((testCase) => testCase.id !== caseId),
    );
    return saved.cases;
  }

  /** Cancels a running test run: its cases' runs are cancelled, the cases not started are skipped. */
  async cancel(testRunId: string): Promise<TestRunRecord> {
    const active = this.active.get(testRunId);
    if (!active) {
      const record = await this.get(testRunId);
      if (record.status !== "running")
        throw new ApiError("invalid_state", `Test run "${testRunId}" has already ended (${record.status}).`);
      // Started by a process that stopped: nothing runs it any more.
      const ended = finish({ ...record, cases: record.cases.map(skipUnfinished) }, true);
      await this.save(ended);
      return ended;
    }
    active.cancelled = true;
    await Promise.all(
      active.record.cases
        .filter((result) => result.status === "running" && result.runId)
        .map((result) =>
          this.options.runs.cancelRun(result.runId!).catch((error: unknown) => {
            this.options.logger.info("test case run not cancelled", {
              runId: result.runId,
              error: String(error),
            });
          }),
        ),
    );
    return active.record;
  }

  private async execute(
    active: ActiveTestRun,
    options: { spec: AgentSpec; cases: readonly TestCase[]; concurrency: number | undefined },
  ): Promise<void> {
    const queue = [...options.cases];
    const worker = async () => {
      for (let testCase = queue.shift(); testCase; testCase = queue.shift()) {
        await this.runCase(active, options.spec, testCase);
      }
    };
    const workers = Math.min(options.concurrency ?? DEFAULT_TEST_CONCURRENCY, queue.length);
    try {
      await Promise.all(Array.from({ length: workers }, worker));
    } catch (error) {
      this.options.logger.error("test run failed", { testRunId: active.record.id, error: String(error) });
    } finally {
      active.record = finish(
        { ...active.record, cases: active.record.cases.map(skipUnfinished) },
        active.cancelled,
      );
      this.active.delete(active.record.id);
      await this.saveLatest(active).catch(() => undefined);
    }
  }

  private async runCase(active: ActiveTestRun, spec: AgentSpec, testCase: TestCase): Promise<void> {
    if (active.cancelled) return this.setCase(active, testCase.id, { status: "skipped" });
    const { runs, registry, store, hub } = this.options;
    const runId = createRunId();
    registry.set(runId, testCase);
    const ended = waitForRunEnd({ hub, store, runId });
    try {
      await runs.startRun(
        { agentId: active.record.agentId, query: testCase.query, agentVersion: active.record.agentVersion },
        { runId, origin: { purpose: "test", testRunId: active.record.id, caseId: testCase.id } },
      );
      await this.setCase(active, testCase.id, { status: "running", runId });
      const run = await ended.promise;
      const facts = getRunFacts(await store.listEvents(runId), {
        status: run.status,
        ...(run.result?.kind === "finish" ? { answer: run.result.payload.answer } : {}),
        ...(run.durationMs === undefined ? {} : { durationMs: run.durationMs }),
      });
      if (run.error && !facts.error) facts.error = { code: run.error.code, message: run.error.message };
      const { createJudgeLlm } = this.options;
      const judgeLlm: JudgeLlmFactory | undefined =
        createJudgeLlm && ((model) => createJudgeLlm(spec, model));
      const verdict = await evaluateTestCase({
        testCase,
        toolNames: spec.tools.map((tool) => tool.name),
        facts,
        ...(judgeLlm ? { judgeLlm } : {}),
      });
      if (run.status === "paused") {
        const reason = getPausedCaseReason({ testRunId: active.record.id, testCase, pause: facts.pause });
        await endPausedCaseRun({ runs, logger: this.options.logger, runId, reason });
      }
      await this.setCase(active, testCase.id, {
        runId,
        status: active.cancelled && run.status === "cancelled" ? "skipped" : verdict.status,
        failures: verdict.failures,
        ...(verdict.skippedChecks.length > 0 ? { skippedChecks: verdict.skippedChecks } : {}),
        llmCalls: facts.llmCalls,
        tokens: facts.tokens,
        costUsd: facts.costUsd,
        durationMs: Math.round(facts.durationMs),
      });
    } catch (error) {
      // A case that cannot start (its agent's endpoint refused, …) fails alone, with the reason.
      const failure = error as { code?: unknown; message?: unknown };
      await this.setCase(active, testCase.id, {
        status: "failed",
        failures: [
          {
            check: "run",
            expected: "a run",
            actual: typeof failure.code === "string" ? failure.code : "error",
            message: `The case could not run: ${typeof failure.message === "string" ? failure.message : String(error)}`,
          },
        ],
      });
    } finally {
      ended.stop();
      registry.delete(runId);
    }
  }

  private async setCase(
    active: ActiveTestRun,
    caseId: string,
    change: Partial<TestCaseResult>,
  ): Promise<void> {
    const cases = active.record.cases.map((result) =>
      result.caseId === caseId ? { ...result, ...change } : result,
    );
    active.record = { ...active.record, cases, totals: getTestTotals(cases) };
    await this.saveLatest(active);
  }

  private saveLatest(active: ActiveTestRun): Promise<void> {
    active.saving = active.saving.catch(() => undefined).then(() => this.save(active.record));
    return active.saving;
  }

  private async save(record: TestRunRecord): Promise<void> {
    await this.options.store.tests.saveTestRun(record);
    this.options.onUpdate?.(record);
  }

  private async requireAgent(agentId: string) {
    const agent = await this.options.store.getAgent(agentId);
    if (!agent) throw notFound("Agent", agentId);
    return agent;
  }
}

function pickCases(suite: readonly TestCase[], caseIds: readonly string[]): TestCase[] {
  const unknown = caseIds.filter((id) => !suite.some((testCase) => testCase.id === id));
  if (unknown.length > 0) {
    throw new ApiError(
      "not_found",
      `No test case ${unknown.map((id) => `"${id}"`).join(", ")} in this suite.`,
      {
        caseIds: unknown,
      },
    );
  }
  return suite.filter((testCase) => caseIds.includes(testCase.id));
}

function skipUnfinished(result: TestCaseResult): TestCaseResult {
  return result.status === "queued" || result.status === "running"
    ? { ...result, status: "skipped" }
    : result;
}

function finish(record: TestRunRecord, cancelled: boolean): TestRunRecord {
  const totals = getTestTotals(record.cases);
  return {
    ...record,
    totals,
    status: cancelled ? "cancelled" : totals.failed > 0 ? "failed" : "passed",
    finishedAt: new Date().toISOString(),
  };
}
