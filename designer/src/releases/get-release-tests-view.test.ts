import type { TestRunRecord } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { getReleaseTestsView } from "./get-release-tests-view.js";

const metrics = { llmCalls: 1, tokens: 10, costUsd: 0, durationMs: 5 };
function record(status: TestRunRecord["status"], cases: TestRunRecord["cases"]): TestRunRecord {
  const count = (wanted: string) => cases.filter((entry) => entry.status === wanted).length;
  return {
    id: "tr_1",
    agentId: "a",
    agentVersion: 12,
    status,
    totals: { passed: count("passed"), failed: count("failed"), skipped: count("skipped") },
    cases,
    createdAt: "2026-01-01T00:00:00Z",
    finishedAt: status === "running" ? null : "2026-01-01T00:00:01Z",
  };
}
const passed = {
  caseId: "c1",
  name: "asks blue",
  runId: "run_1",
  status: "passed" as const,
  failures: [],
  ...metrics,
};
const failed = {
  caseId: "c2",
  name: "says blue",
  runId: "run_2",
  status: "failed" as const,
  failures: [
    { check: "answer.contains", expected: ["blue"], actual: "red", message: 'The answer lacks "blue".' },
  ],
  ...metrics,
};

describe("getReleaseTestsView", () => {
  it("says there is no suite, or that Release will run it first", () => {
    expect(getReleaseTestsView({ version: 12, caseCount: null, record: null, releasing: false }).status).toBe(
      "loading",
    );
    const none = getReleaseTestsView({ version: 12, caseCount: 0, record: null, releasing: false });
    expect(none).toMatchObject({ status: "none", text: "No test suite", blockedReason: null });
    const notRun = getReleaseTestsView({ version: 12, caseCount: 2, record: null, releasing: false });
    expect(notRun).toMatchObject({ status: "none", text: "Not run on v12 yet", blockedReason: null });
    expect(notRun.note).toContain("runs the 2 cases first");
  });

  it("shows the gate's run live while a release waits, an earlier result giving way to it", () => {
    const earlier = record("passed", [passed]);
    expect(
      getReleaseTestsView({ version: 12, caseCount: 2, record: earlier, releasing: true }),
    ).toMatchObject({
      status: "running",
      text: "Running 2 cases on v12…",
    });
    const live = record("running", [passed, { ...failed, status: "running", failures: [] }]);
    expect(getReleaseTestsView({ version: 12, caseCount: 2, record: live, releasing: true })).toMatchObject({
      status: "running",
      text: "Running… 1 of 2 cases done on v12",
      blockedReason: null,
    });
  });

  it("passes, or fails with the failing cases in words and Release off with the reason", () => {
    expect(
      getReleaseTestsView({
        version: 12,
        caseCount: 1,
        record: record("passed", [passed]),
        releasing: false,
      }),
    ).toMatchObject({ status: "passed", text: "Passed 1 of 1 case on v12", blockedReason: null });
    const view = getReleaseTestsView({
      version: 12,
      caseCount: 2,
      record: record("failed", [passed, failed]),
      releasing: false,
    });
    expect(view).toMatchObject({ status: "failed", text: "Failed 1 of 2 cases on v12" });
    expect(view.failing).toEqual([
      {
        caseId: "c2",
        name: "says blue",
        status: "failed",
        runId: "run_2",
        reasons: ['The answer lacks "blue".'],
      },
    ]);
    expect(view.blockedReason).toContain("fix the failing cases and save a new version");
  });

  it("falls back on the refusal's failing cases, and words a check without a message", () => {
    const view = getReleaseTestsView({
      version: 3,
      caseCount: 1,
      record: record("interrupted", []),
      releasing: false,
      gateFailures: [
        {
          caseId: "c9",
          runId: null,
          status: "skipped",
          failures: [{ check: "status", expected: 1, actual: 2 }],
        },
      ],
    });
    expect(view).toMatchObject({ status: "failed", text: "Test run interrupted on v3" });
    expect(view.failing[0]).toMatchObject({ name: "c9", reasons: ["status did not hold"] });
  });
});
