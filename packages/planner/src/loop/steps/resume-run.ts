import { getResumeNote } from "@waddle/protocol";
import type { PlannerConfig } from "../planner-config.js";
import type { RunContext } from "../run-context.js";
import type { RunState } from "../../run/run-state.js";
import type { PlannerOutcome, ResumeOptions, RunOptions } from "../../run/run-types.js";
import { PlannerError } from "../../errors/planner-error.js";
import { parseSavedRun } from "../../run/paused-state.js";
import { claimResumeToken, getUnknownTokenError, releaseResumeToken } from "../../pause/resume-claims.js";
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
    assertToolContext(saved.state, options);
    const run = input.restore(saved.state, {
      ...(options.toolContext === undefined ? {} : { toolContext: options.toolContext }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
      ...(options.onCheckpoint === undefined ? {} : { onCheckpoint: options.onCheckpoint }),
      ...(options.taskHost === undefined ? {} : { taskHost: options.taskHost }),
      ...(options.calls === undefined ? {} : { calls: options.calls }),
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
    const note = getResumeNote(options.userInput);
    const data = {
      decision: options.decision,
      reason: paused.reason,
      ...(edited === undefined || !run.events.enabled ? {} : { args: run.events.preview(edited.args) }),
      ...(note === undefined ? {} : { note }),
    };
    run.events.emit("resumed", data);
    return applyResumeDecision({ run, paused, options, edited });
  });
}

/**
 * A run started with a toolContext cannot go on without it (its tools would run with `{}`): a resume that
 * does not bring back every key is refused before the token is spent, so it can be sent again with them.
 */
function assertToolContext(state: RunState, options: ResumeOptions): void {
  const needed = state.toolContextKeys ?? [];
  if (needed.length === 0) return;
  const given = options.toolContext ?? {};
  const missing = needed.filter((key) => !(key in given));
  if (missing.length === 0) return;
  throw new PlannerError(
    "invalid_resume",
    `This run was started with a toolContext (keys: ${needed.join(", ")}) that this resume does not bring ` +
      `back (missing: ${missing.join(", ")}): toolContext values are never saved with a pause. Resume again ` +
      "with the same toolContext.",
    { details: { toolContextRequired: true, toolContextKeys: needed, missing } },
  );
}
