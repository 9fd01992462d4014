import { READ_ONLY_SIDE_EFFECTS } from "@waddle/protocol";
import type { RestoredRun } from "./resume-run.js";
import type { RunState } from "../../run/run-state.js";
import type { PlannerOutcome, RecoverOptions, RunOptions } from "../../run/run-types.js";
import { parseRunCheckpoint, type InFlightAction } from "../../run/run-checkpoint.js";

/**
 * `ReactPlanner.recover`: continues a run from its last checkpoint after the process running it stopped.
 * The run emits `run_recovered`, then: a call that was in flight runs again when its tools are `pure` or
 * `read`; one with `write`, `external` or `stateful` effects is never re-run silently: the run pauses for
 * approval, saying the call was interrupted (approve runs it again, reject tells the model it failed).
 */
export async function recoverRun(input: {
  checkpoint: unknown;
  options: RecoverOptions;
  restore: (state: RunState, options: RunOptions) => RestoredRun;
}): Promise<PlannerOutcome> {
  const { options } = input;
  const checkpoint = parseRunCheckpoint(input.checkpoint);
  const { state, inFlight } = checkpoint;
  const checkpointSeq = state.seq;
  // Events the stopped process stored after the checkpoint stay: the recovered ones follow them.
  state.seq = Math.max(state.seq, options.lastSeq ?? 0);
  const run = input.restore(state, {
    ...(options.toolContext === undefined ? {} : { toolContext: options.toolContext }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
    ...(options.onCheckpoint === undefined ? {} : { onCheckpoint: options.onCheckpoint }),
    ...(options.taskHost === undefined ? {} : { taskHost: options.taskHost }),
    ...(options.calls === undefined ? {} : { calls: options.calls }),
  });
  const rerun = inFlight !== undefined && READ_ONLY_SIDE_EFFECTS.has(inFlight.sideEffects);
  return run.continue(() => {
    run.events.emit("run_recovered", {
      message: getRecoveryMessage(inFlight, rerun),
      checkpointSeq,
      ...(inFlight === undefined
        ? {}
        : { interrupted: { tool: inFlight.tool, sideEffects: inFlight.sideEffects }, rerun }),
    });
    if (inFlight === undefined) return undefined;
    if (rerun) {
      const source = inFlight.source === "llm" ? "system" : inFlight.source;
      run.state.pendingActions.unshift({
        action: inFlight.action,
        source,
        ...(inFlight.approved ? { approved: true } : {}),
        ...(inFlight.resumeInput === undefined ? {} : { resumeInput: inFlight.resumeInput }),
      });
      return undefined;
    }
    // As a gate's pause would have: the iteration of the paused call counts (resume gives it back).
    run.state.iteration += 1;
    return run.pause({
      reason: "approval_required",
      kind: "tool_approval",
      action: inFlight.action,
      payload: {
        tool: inFlight.tool,
        args: inFlight.action.args,
        sideEffects: inFlight.sideEffects,
        interrupted: true,
        message:
          `The call to ${inFlight.tool} (${inFlight.sideEffects}) was interrupted: the process running it ` +
          "stopped before it returned, so it may or may not have taken effect. Approve to run it again, " +
          "reject to tell the model it did not complete.",
      },
    });
  });
}

function getRecoveryMessage(inFlight: InFlightAction | undefined, rerun: boolean): string {
  if (inFlight === undefined) return "The run continues from its last completed step on another worker.";
  return rerun
    ? `The run continues on another worker; ${inFlight.tool} (${inFlight.sideEffects}) was in flight and runs again.`
    : `The run continues on another worker; ${inFlight.tool} (${inFlight.sideEffects}) was in flight and waits for a person.`;
}
