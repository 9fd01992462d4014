import type { RunEventData, TestFailure } from "@waddle/protocol";

/** A `stuck_detected` of the run, as a test case reads it. */
export type RunStuckFact = RunEventData<"stuck_detected">;

/**
 * `expect.stuck`: `true`, the stuck-run breaker must have found the run going in circles; `false`, it must
 * not have (docs/guides/stuck-runs.md).
 */
export function checkStuck(expected: boolean, found: readonly RunStuckFact[]): TestFailure | undefined {
  if (expected === found.length > 0) return undefined;
  if (expected) {
    return {
      check: "stuck",
      expected: true,
      actual: false,
      message: "The run was never found stuck, expected a stuck_detected event.",
    };
  }
  const first = found[0]!;
  const what = first.message ?? `${first.pattern} of ${first.tools.join(", ")}`;
  return {
    check: "stuck",
    expected: false,
    actual: found.map(({ pattern, tools, count, action }) => ({ pattern, tools, count, action })),
    message: `The run was found stuck (${what}; ${first.action}), expected it not to be.`,
  };
}
