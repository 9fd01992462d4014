import type { GuardExpect, RunEvent, RunEventData, TestFailure } from "@waddle/protocol";

/** A `guard_verdict` of the run, as a test case reads it. */
export type RunGuardFact = RunEventData<"guard_verdict">;

/**
 * `expect.guards`: each listed guard must have decided so at least once in the run (a `guard_verdict` with
 * that guard and verdict). One failure per expectation that did not hold, saying what the guard decided.
 */
export function checkGuardVerdicts(
  expected: readonly GuardExpect[],
  found: readonly RunGuardFact[],
): TestFailure[] {
  const failures: TestFailure[] = [];
  for (const { guard, verdict } of expected) {
    const decided = found.filter((fact) => fact.guard === guard);
    if (decided.some((fact) => fact.verdict === verdict)) continue;
    const verdicts = [...new Set(decided.map((fact) => fact.verdict))];
    failures.push({
      check: "guards",
      expected: { guard, verdict },
      actual: decided.map((fact) => ({
        verdict: fact.verdict,
        action: fact.action,
        on: fact.on,
        ...(fact.tool === undefined ? {} : { tool: fact.tool }),
      })),
      message:
        decided.length === 0
          ? `Guard "${guard}" never decided in this run, expected "${verdict}".`
          : `Guard "${guard}" decided ${verdicts.map((each) => `"${each}"`).join(", ")}, never "${verdict}".`,
    });
  }
  return failures;
}

/**
 * The verdicts a case made from a run can expect again, each `{guard, verdict}` once in the order first
 * seen. Left out: verdicts that changed what the case replays (a tool result or an answer that was
 * redacted or blocked is saved as changed, so the guard would not decide the same on it).
 */
export function getReplayableGuardVerdicts(events: readonly RunEvent[]): GuardExpect[] {
  const seen = new Set<string>();
  const verdicts: GuardExpect[] = [];
  for (const event of events) {
    if (event.type !== "guard_verdict") continue;
    const { guard, verdict, on, action } = event.data;
    if (on !== "input" && (action === "redact" || action === "block")) continue;
    const key = JSON.stringify([guard, verdict]);
    if (seen.has(key)) continue;
    seen.add(key);
    verdicts.push({ guard, verdict });
  }
  return verdicts;
}
