import type { TestCaseResult, TestRunRecord } from "@waddle/protocol";
import type { GateFailure } from "./release-errors.js";

/** `none`: no suite, or not run on this version yet; the rest say what its newest test run did. */
export type ReleaseTestsStatus = "loading" | "none" | "running" | "passed" | "failed";

export interface ReleaseTestsCase {
  caseId: string;
  name: string;
  status: string;
  runId: string | null;
  /** Each failed check in words. */
  reasons: string[];
}

export interface ReleaseTestsView {
  status: ReleaseTestsStatus;
  /** The line shown: "Passed 3 of 3 cases on v12", "Running… 1 of 3 cases done on v12". */
  text: string;
  /** What Release will do about it. */
  note: string;
  failing: ReleaseTestsCase[];
  /** Why Release is off (the tests fail), or null. */
  blockedReason: string | null;
}

export interface ReleaseTestsInput {
  version: number;
  /** Cases in the agent's suite (null: still loading). */
  caseCount: number | null;
  /** The newest test run of `version` (a release's gate run among them), whole; null: none yet. */
  record: TestRunRecord | null;
  /** A release is being sent: its gate is running the suite. */
  releasing: boolean;
  /** The failing cases a `409 tests_failed` listed, when the record itself could not be read. */
  gateFailures?: readonly GateFailure[] | undefined;
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;

function getReasons(failures: GateFailure["failures"]): string[] {
  return failures.map((failure) => failure.message ?? `${failure.check} did not hold`);
}

function toCase(result: Pick<TestCaseResult, "caseId" | "name" | "status" | "runId" | "failures">) {
  return {
    caseId: result.caseId,
    name: result.name ?? result.caseId,
    status: result.status,
    runId: result.runId,
    reasons: getReasons(result.failures),
  };
}

/**
 * What the release dialog says of the tests: the agent's suite run on the version being released, live
 * while it runs (the gate's own run when Release was pressed), then passed or failed with the failing cases
 * and why. A failed run keeps Release off until a passing version is saved or the suite passes again.
 */
export function getReleaseTestsView(input: ReleaseTestsInput): ReleaseTestsView {
  const { version, caseCount, record, releasing } = input;
  const none = { failing: [], blockedReason: null };
  if (caseCount === null) return { status: "loading", text: "Reading the test suite…", note: "", ...none };
  if (caseCount === 0)
    return {
      status: "none",
      text: "No test suite",
      note: "Nothing gates this release. Save runs as tests in the Tests tab to gate the next one.",
      ...none,
    };
  const cases = plural(caseCount, "case");
  if (record === null || (releasing && record.status !== "running")) {
    return releasing
      ? {
          status: "running",
          text: `Running ${cases} on v${version}…`,
          note: "The release waits for them.",
          ...none,
        }
      : {
          status: "none",
          text: `Not run on v${version} yet`,
          note: `Release runs the ${cases} first and moves the channel only if every one passes.`,
          ...none,
        };
  }
  const total = record.cases.length || caseCount;
  if (record.status === "running") {
    const done = record.cases.filter((result) => !["queued", "running"].includes(result.status)).length;
    return {
      status: "running",
      text: `Running… ${done} of ${plural(total, "case")} done on v${version}`,
      note: releasing ? "The release waits for them." : "",
      failing: record.cases.filter((result) => result.status === "failed").map(toCase),
      blockedReason: null,
    };
  }
  if (record.status === "passed")
    return {
      status: "passed",
      text: `Passed ${record.totals.passed} of ${plural(total, "case")} on v${version}`,
      note: "Release runs them once more, as its gate, before it moves the channel.",
      ...none,
    };
  const failing = record.cases.filter((result) => result.status !== "passed").map(toCase);
  const shown = failing.length > 0 ? failing : (input.gateFailures ?? []).map(toCase);
  const failed =
    record.status === "failed"
      ? `Failed ${shown.length} of ${plural(total, "case")}`
      : `Test run ${record.status}`;
  return {
    status: "failed",
    text: `${failed} on v${version}`,
    note: "",
    failing: shown,
    blockedReason: `The tests fail on v${version}: fix the failing cases and save a new version, or run them again.`,
  };
}
