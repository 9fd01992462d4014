import type { PlannerConfig } from "../run/planner-config.js";
import type { RunContext } from "../run/run-context.js";
import type { RunState } from "../run/run-state.js";
import type { PlannerOutcome, ResumeOptions, RunOptions } from "../run/run-types.js";
import { parseSavedRun } from "./paused-state.js";
import { claimResumeToken, getUnknownTokenError, releaseResumeToken } from "./resume-claims.js";
import { applyResumeDecision, checkResumeDecision } from "./resume-decision.js";

/** A run rebuilt from its saved state, ready to continue its loop after `prelude`. */
export interface RestoredRun extends RunContext {
  continue(prelude: () => Promise<PlannerOutcome> | PlannerOutcome | undefined): Promise<PlannerOutcome>;
}

/**
 * `ReactPlanner.resume`: claims the token (single-use, even for overlapping resumes), loads and checks
 * the saved run, checks the decision, and only then deletes the saved state — so that a refused decision
 * (`invalid_resume`) leaves the pause intact to answer again. Then the restored run emits `resumed`,
 * applies the decision and continues its loop.
 */
export async function resumeRun(input: {
  config: PlannerConfig;
  token: string;
  options: ResumeOptions;
  /** Rebuilds the run from its saved state (the planner's `PlannerRun`). */
  restore: (state: RunState, options: RunOptions) => RestoredRun;
}): Promise<PlannerOutcome> {
  const { config, token, options } = input;
  claimResumeToken(token);
  let consumed = false;
  let prepared;
  try {
    const stored = await config.stateStore.load(token);
    if (stored === undefined) throw getUnknownTokenError(token);
    const saved = parseSavedRun(stored, token);
    const run = input.restore(saved.state, {
      ...(options.toolContext === undefined ? {} : { toolContext: options.toolContext }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
      ...(options.onCheckpoint === undefined ? {} : { onCheckpoint: options.onCheckpoint }),
    });
    let edited;
    try {
      edited = checkResumeDecision(run, saved.paused, options);
    } catch (error) {
      run.cancellation.dispose();
      throw error;
    }
    await config.stateStore.delete(token);
    consumed = true;
    prepared = { run, paused: saved.paused, edited };
  } finally {
    releaseResumeToken(token, consumed);
  }
  const { run, paused, edited } = prepared;
  return run.continue(() => {
    const data = {
      decision: options.decision,
      reason: paused.reason,
      ...(edited === undefined || !run.events.enabled ? {} : { args: run.events.preview(edited.args) }),
    };
    run.events.emit("resumed", data);
    return applyResumeDecision({ run, paused, options, edited });
  });
}
