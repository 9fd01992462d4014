import type { TestRunRecord } from "@waddle/protocol";
import type { TestRunService } from "../agent-tests/test-run-service.js";
import { ApiError } from "../shared/api-error.js";
import type { WaddleStore } from "../store/waddle-store.js";
import type { TestRunEnds } from "./test-run-ends.js";

/** What the gate let through: the test run that ran (null: no suite) and the override it took, if any. */
export interface GateResult {
  testRunId: string | null;
  overrideReason: string | null;
}

export interface ReleaseGateOptions {
  store: WaddleStore;
  tests?: TestRunService | undefined;
  ends?: TestRunEnds | undefined;
}

/**
 * Runs the agent's suite against the version about to be released, through the test-run service, and
 * refuses the release (409 `tests_failed`, the test run and its failing cases) unless every case passed
 * or an admin's `overrideReason` is given. An agent without cases passes with no test run.
 */
export async function runReleaseGate(
  options: ReleaseGateOptions & { agentId: string; version: number; overrideReason?: string | undefined },
): Promise<GateResult> {
  const { store, tests, ends, agentId, version } = options;
  const cases = (await store.tests.getSuite(agentId))?.cases ?? [];
  if (cases.length === 0) return { testRunId: null, overrideReason: null };
  if (!tests || !ends) {
    throw new ApiError("invalid_state", "This server runs no test suites, so it cannot gate a release.", {
      reason: "no_test_runner",
    });
  }
  const { testRunId } = await tests.start(agentId, { agentVersion: version });
  const record = await ends.waitForEnd(testRunId, () => tests.get(testRunId));
  if (record.status === "passed") return { testRunId, overrideReason: null };
  if (options.overrideReason !== undefined) return { testRunId, overrideReason: options.overrideReason };
  const failures = getFailingCases(record);
  throw new ApiError(
    "tests_failed",
    `Version ${version} of "${agentId}" failed ${failures.length} of ${record.cases.length} test case(s) ` +
      `(test run ${testRunId}, ${record.status}): fix them and save a new version, or an admin may release ` +
      `anyway with override.reason.`,
    { testRunId, status: record.status, failures },
  );
}

/** The cases that did not pass, with why. */
export function getFailingCases(record: TestRunRecord) {
  return record.cases
    .filter((result) => result.status !== "passed")
    .map((result) => ({
      caseId: result.caseId,
      name: result.name,
      runId: result.runId,
      status: result.status,
      failures: result.failures,
    }));
}
