import type { RunMetadata } from "@waddle/protocol";
import { getFailedJoins } from "./failed-joins.js";
import type { RunState } from "./run-state.js";

/**
 * What `run_finished` and `pause` report about a run at `now`: steps, calls, usage, duration, and the joins
 * that failed. The steps hold joins already scrubbed of secrets (see `TrajectoryRecorder`).
 */
export function createRunMetadata(state: RunState, now: number): RunMetadata {
  const { usage } = state;
  const metadata: RunMetadata = {
    steps: state.steps.length,
    llmCalls: usage.llmCalls,
    autoSeqSavedCalls: state.autoSeqSavedCalls,
    usage: { ...usage },
    durationMs: Math.max(0, now - state.startedAt),
  };
  const failedJoins = getFailedJoins(state.steps);
  if (failedJoins.length > 0) metadata.failedJoins = failedJoins;
  return metadata;
}
