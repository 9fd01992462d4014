import { createTestCaseTools, getTestCaseLlm } from "@waddle/planner";
import type { TestCase } from "@waddle/protocol";
import type { PlannerFactory } from "../runs/planner-factory.js";
import { ApiError } from "../shared/api-error.js";
import type { WaddleStore } from "../store/waddle-store.js";

/** The cases of the test runs this process started, by the id of the run that runs each. */
export class TestCaseRegistry {
  private readonly byRunId = new Map<string, TestCase>();

  set(runId: string, testCase: TestCase): void {
    this.byRunId.set(runId, testCase);
  }

  get(runId: string): TestCase | undefined {
    return this.byRunId.get(runId);
  }

  delete(runId: string): void {
    this.byRunId.delete(runId);
  }
}

/**
 * Builds the planner of a test case's run (`purpose: "test"`) with the case's mocks and model, through the
 * `prepare` hook of the base factory; every other run is built as it was. The case comes from the test
 * run that started it (this process), else from the agent's saved suite (another worker in queue mode).
 */
export function createTestCasePlannerFactory(options: {
  base: PlannerFactory;
  store: WaddleStore;
  registry: TestCaseRegistry;
}): PlannerFactory {
  const { base, store, registry } = options;
  return async (request) => {
    const testCase = registry.get(request.runId) ?? (await findStoredCase(store, request.runId));
    if (testCase === undefined) return base(request);
    return base({
      ...request,
      prepare: (parts) => {
        const tools = createTestCaseTools({
          spec: parts.spec,
          testCase,
          moduleTools: parts.moduleTools,
          ...(parts.resolveImpl ? { resolveImpl: parts.resolveImpl } : {}),
        });
        return {
          spec: tools.spec,
          llm: getTestCaseLlm(testCase, parts.llm),
          moduleTools: tools.moduleTools,
          resolveImpl: tools.resolveImpl,
        };
      },
    });
  };
}

/** The saved case of a test run's run; a run of a case that is gone fails rather than run real tools. */
async function findStoredCase(store: WaddleStore, runId: string): Promise<TestCase | undefined> {
  const run = await store.getRun(runId);
  if (run?.purpose !== "test") return undefined;
  const suite = await store.tests.getSuite(run.agentId);
  const testCase = suite?.cases.find((candidate) => candidate.id === run.caseId);
  if (testCase === undefined) {
    throw new ApiError(
      "not_found",
      `Test case "${run.caseId ?? "?"}" is no longer in the suite of "${run.agentId}": run the suite again.`,
    );
  }
  return testCase;
}
