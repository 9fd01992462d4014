import type { RunEvent } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { checkExpectations } from "./check-expectations.js";
import { checkGuardVerdicts, getReplayableGuardVerdicts, type RunGuardFact } from "./check-guard-verdicts.js";
import { createTestCaseFromRun } from "./create-test-case-from-run.js";
import { getRunFacts } from "./run-facts.js";

const verdict = (fact: Partial<RunGuardFact> & Pick<RunGuardFact, "guard" | "verdict">): RunGuardFact => ({
  on: "tool_result",
  action: fact.verdict === "pass" ? "none" : "flag",
  findings: [],
  check: "pii",
  ...fact,
});

let seq = 0;
const event = (type: string, data: Record<string, unknown>): RunEvent =>
  ({ runId: "run_1", seq: (seq += 1), ts: seq, step: 0, type, data }) as unknown as RunEvent;

describe("expect.guards", () => {
  it("holds when each listed guard decided so at least once", () => {
    const found = [
      verdict({ guard: "no-pii", verdict: "pass" }),
      verdict({ guard: "no-pii", verdict: "fail", findings: [{ kind: "email", count: 1 }] }),
      verdict({ guard: "length", verdict: "pass", on: "output" }),
    ];
    expect(
      checkGuardVerdicts(
        [
          { guard: "no-pii", verdict: "fail" },
          { guard: "length", verdict: "pass" },
        ],
        found,
      ),
    ).toEqual([]);
  });

  it("says which did not hold: a guard that decided otherwise, and one that never ran", () => {
    const found = [verdict({ guard: "no-pii", verdict: "pass", tool: "lookup" })];
    expect(
      checkGuardVerdicts(
        [
          { guard: "no-pii", verdict: "fail" },
          { guard: "secrets", verdict: "pass" },
        ],
        found,
      ),
    ).toEqual([
      {
        check: "guards",
        expected: { guard: "no-pii", verdict: "fail" },
        actual: [{ verdict: "pass", action: "none", on: "tool_result", tool: "lookup" }],
        message: 'Guard "no-pii" decided "pass", never "fail".',
      },
      {
        check: "guards",
        expected: { guard: "secrets", verdict: "pass" },
        actual: [],
        message: 'Guard "secrets" never decided in this run, expected "pass".',
      },
    ]);
  });

  it("is read from the run's guard_verdict events by checkExpectations", () => {
    const events = [
      event("guard_verdict", verdict({ guard: "no-pii", verdict: "error", action: "block" })),
      event("run_failed", { error: { code: "guard_blocked", message: "Blocked." } }),
    ];
    const facts = getRunFacts(events);
    expect(facts.guards).toHaveLength(1);
    expect(checkExpectations({ guards: [{ guard: "no-pii", verdict: "error" }] }, facts)).toEqual([]);
    expect(
      checkExpectations({ guards: [{ guard: "no-pii", verdict: "pass" }] }, facts).map(
        (failure) => failure.message,
      ),
    ).toEqual(['Guard "no-pii" decided "error", never "pass".']);
  });
});

describe("expect.guards of a case saved from a run", () => {
  it("lists each guard's verdicts once, leaving out results and answers a guard changed", () => {
    const events = [
      event(
        "guard_verdict",
        verdict({ guard: "query-words", verdict: "fail", on: "input", action: "redact" }),
      ),
      event("guard_verdict", verdict({ guard: "no-pii", verdict: "pass" })),
      event("guard_verdict", verdict({ guard: "no-pii", verdict: "pass" })),
      event("guard_verdict", verdict({ guard: "no-pii", verdict: "fail", action: "flag" })),
      event("guard_verdict", verdict({ guard: "no-secrets", verdict: "fail", action: "redact" })),
      event("guard_verdict", verdict({ guard: "no-links", verdict: "fail", action: "block" })),
      event(
        "guard_verdict",
        verdict({ guard: "answer-pii", verdict: "fail", on: "output", action: "redact" }),
      ),
      event("guard_verdict", verdict({ guard: "answer-length", verdict: "pass", on: "output" })),
    ];
    expect(getReplayableGuardVerdicts(events)).toEqual([
      { guard: "query-words", verdict: "fail" },
      { guard: "no-pii", verdict: "pass" },
      { guard: "no-pii", verdict: "fail" },
      { guard: "answer-length", verdict: "pass" },
    ]);
    const testCase = createTestCaseFromRun({
      run: { id: "run_1", query: "q", status: "finished", answer: "done" },
      events: [...events, event("run_finished", { reason: "answer_complete", payload: { answer: "done" } })],
      id: "case",
    });
    expect(testCase.expect.guards).toEqual(getReplayableGuardVerdicts(events));
  });

  it("has no guards expectation when the run had no guard", () => {
    const testCase = createTestCaseFromRun({
      run: { id: "run_1", query: "q", status: "finished", answer: "done" },
      events: [event("run_finished", { reason: "answer_complete", payload: { answer: "done" } })],
      id: "case",
    });
    expect(testCase.expect).not.toHaveProperty("guards");
  });
});
