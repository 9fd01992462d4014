import { describePause, type RunFacts } from "@waddle/planner";
import type { TestCase } from "@waddle/protocol";
import type { RunCommands } from "../runs/run-service.js";
import type { Logger } from "../shared/logger.js";

/** What the cancel of a judged case's paused run says: which test run ended it, and on what it waited. */
export function getPausedCaseReason(options: {
  testRunId: string;
  testCase: Pick<TestCase, "name" | "expect">;
  pause: RunFacts["pause"];
}): string {
  const { testCase } = options;
  const on = options.pause ? describePause(options.pause) : "paused";
  const verdict =
    testCase.expect.status === "paused"
      ? `the case expected this pause (the run ${on})`
      : `the case failed: the run ${on}`;
  return `Ended by test run ${options.testRunId} once its case "${testCase.name}" was judged: ${verdict}. A test run never waits for a decision.`;
}

/**
 * Cancels a case's run that paused, once the case is judged: nobody answers a test run's pause, and a run
 * left waiting would stay "Active" for good. A run someone answered meanwhile is left alone.
 */
export async function endPausedCaseRun(options: {
  runs: Pick<RunCommands, "cancelRun">;
  logger: Logger;
  runId: string;
  reason: string;
}): Promise<void> {
  try {
    await options.runs.cancelRun(options.runId, { reason: options.reason });
  } catch (error) {
    options.logger.info("paused test case run not cancelled", { runId: options.runId, error: String(error) });
  }
}
