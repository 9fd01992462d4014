import type { StuckAction } from "@waddle/protocol";
import { detectStuck, type StuckFinding } from "../../stuck/detect-stuck.js";
import { createFallbackPayload } from "../../run/final-payload.js";
import type { PlannerOutcome } from "../../run/run-types.js";
import { finishWithAnswerTurn } from "../budgets/budget-answer.js";
import type { RunContext } from "../run-context.js";
import { deliverAnswer } from "./guard-steps.js";

/**
 * The stuck-run breaker (docs/guides/stuck-runs.md), after each step: when the newest step completes a
 * loop, emits `stuck_detected` and nudges the model once, pauses for a person, or finishes the run with the
 * best answer so far. A nudge that did not help finishes the run at the next loop found.
 */
export function checkStuck(run: RunContext): PlannerOutcome | Promise<PlannerOutcome> | undefined {
  const options = run.config.options.stuck;
  if (!options.enabled) return undefined;
  const mark = run.state.stuck;
  const todos = run.config.writeTodosTool?.name;
  const finding = detectStuck({
    steps: run.state.steps,
    repeats: options.repeats,
    since: mark?.since ?? 0,
    ...(todos === undefined ? {} : { ignored: new Set([todos]) }),
  });
  if (finding === undefined) return undefined;
  const action = getStuckAction(run, options.action);
  const { pattern, tools, count, message } = finding;
  run.events.emit("stuck_detected", { pattern, tools, count, action, message });
  switch (action) {
    case "nudge":
      run.state.stuck = { since: mark?.since ?? 0, nudged: true };
      run.recordStep({
        action: { next_node: "stuck_notice", args: {} },
        source: "system",
        observation: { stuck_notice: getNudgeText(finding) },
        note: true,
      });
      return undefined;
    case "pause":
      // Approved, the run goes on and only what comes after the pause counts again.
      run.state.stuck = { since: run.state.steps.length };
      return run.pause({
        reason: "stuck",
        kind: "stuck",
        payload: {
          pattern,
          tools,
          count,
          message: `The run looks stuck: ${message}. Approve to let it go on, reject to stop it.`,
        },
      });
    case "finish":
      return finishWithAnswerTurn(run, {
        constraint: undefined,
        hint: "stuck",
        message: `The run was stopped because it was going in circles: ${message}.`,
        reason: "stuck",
      });
  }
}

type StepResult = PlannerOutcome | undefined | Promise<PlannerOutcome | undefined>;

/** A tool step, then the breaker when the step did not end the run. Not `async` (see `dispatchAction`). */
export function afterToolStep(run: RunContext, result: StepResult): StepResult {
  if (result instanceof Promise) return result.then((outcome) => outcome ?? checkStuck(run));
  return result ?? checkStuck(run);
}

/** A second loop after a nudge finishes; a run that cannot pause finishes instead of pausing. */
function getStuckAction(run: RunContext, configured: StuckAction): StuckAction {
  if (configured === "nudge" && run.state.stuck?.nudged === true) return "finish";
  if (configured === "pause" && run.config.options.pauseEnabled === false) return "finish";
  return configured;
}

/** What the model reads once: what it repeats, and that it must change course or answer. */
export function getNudgeText(finding: StuckFinding): string {
  return (
    `You are going in circles: ${finding.message}, and nothing new came back. Do not repeat it. ` +
    "Change course (another tool, or different arguments that ask something new) or give your final " +
    "answer now from what you have. Repeating it again ends the run."
  );
}

/** A person stopped a run paused as stuck: it finishes with what it found (`stuck`, never empty). */
export function finishStuckRejected(
  run: RunContext,
  note: string | undefined,
): PlannerOutcome | Promise<PlannerOutcome> {
  const why = note === undefined ? "" : ` (${note})`;
  const message = `A person stopped the run after it was found going in circles${why}.`;
  return deliverAnswer(run, "stuck", createFallbackPayload({ message, steps: run.state.steps }));
}
