// The deadline as the loop reads it (docs/budgets.md): an absolute time in the run's state, less a reserve
// that keeps time for the answer turn.
import type { RunContext } from "../run-context.js";

type DeadlineRun = Pick<RunContext, "config" | "state">;

/** The least time an answer turn at the deadline gets; with less left the run ends with the canned answer. */
export const ANSWER_TURN_MIN_MS = 1_000;

/**
 * How long before the deadline tools and planning calls stop, so that the model has a turn to write its
 * answer: a tenth of the deadline, between 1 and 10 s; none under a 2 s deadline.
 */
export function getAnswerReserveMs(deadlineS: number | undefined): number {
  if (deadlineS === undefined || deadlineS < 2) return 0;
  return Math.min(10_000, Math.max(ANSWER_TURN_MIN_MS, deadlineS * 100));
}

/** When tools and planning calls must stop: the deadline less the answer turn's reserve (none without one). */
export function getWorkDeadlineAt(run: DeadlineRun): number | undefined {
  const { deadlineAt } = run.state;
  return deadlineAt === undefined ? undefined : deadlineAt - getAnswerReserveMs(run.config.options.deadlineS);
}

/** Past the time tools and planning calls may use. */
export function isPastDeadline(run: DeadlineRun): boolean {
  const workUntil = getWorkDeadlineAt(run);
  return workUntil !== undefined && run.config.clock() >= workUntil;
}

/** Milliseconds tools and planning calls may still use (undefined without a deadline). */
export function getRemainingMs(run: DeadlineRun): number | undefined {
  const workUntil = getWorkDeadlineAt(run);
  return workUntil === undefined ? undefined : Math.max(0, workUntil - run.config.clock());
}

/** Why the deadline stops the run: passed, or so near that only the answer turn fits. */
export function getDeadlineMessage(run: DeadlineRun): string {
  const deadlineS = run.config.options.deadlineS ?? 0;
  const left = run.state.deadlineAt === undefined ? 0 : run.state.deadlineAt - run.config.clock();
  return left >= ANSWER_TURN_MIN_MS
    ? `The deadline of ${deadlineS} s is near (${(left / 1000).toFixed(1)} s left): there is time only to answer.`
    : `The deadline of ${deadlineS} s has passed.`;
}
