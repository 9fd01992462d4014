import type { FailedJoin } from "@waddle/protocol";
import type { TrajectoryStep } from "./run-state.js";

/**
 * The joins of a run that failed (args that did not validate, a tool that failed), in step order. A join is
 * `recovered` when a later step ran the same tool successfully, on its own or as another join.
 */
export function getFailedJoins(steps: readonly TrajectoryStep[]): FailedJoin[] {
  const failed: FailedJoin[] = [];
  steps.forEach((step, index) => {
    const failure = step.join?.failure;
    if (step.join === undefined || failure === undefined) return;
    failed.push({
      step: index,
      node: step.join.node,
      errorCode: failure.error_code,
      message: failure.message,
      recovered: hasLaterSuccess(steps, index, step.join.node),
    });
  });
  return failed;
}

function hasLaterSuccess(steps: readonly TrajectoryStep[], after: number, node: string): boolean {
  for (let index = after + 1; index < steps.length; index += 1) {
    const step = steps[index]!;
    if (step.join?.node === node && isSuccess(step.join)) return true;
    if (step.next_node === node && step.refused === undefined && isSuccess(step)) return true;
  }
  return false;
}

function isSuccess(outcome: { failure?: unknown; skipped?: string; observation?: unknown }): boolean {
  return outcome.failure === undefined && outcome.skipped === undefined && outcome.observation !== undefined;
}
