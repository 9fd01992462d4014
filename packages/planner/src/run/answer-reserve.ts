/** The least time an answer turn at the deadline gets; with less left the run ends with the canned answer. */
export const ANSWER_TURN_MIN_MS = 1_000;

/**
 * How long before the deadline tools and planning calls stop, so that the model has a turn to write its
 * answer (docs/budgets.md): a tenth of the deadline, between 1 and 10 s; none under a 2 s deadline.
 */
export function getAnswerReserveMs(deadlineS: number | undefined): number {
  if (deadlineS === undefined || deadlineS < 2) return 0;
  return Math.min(10_000, Math.max(ANSWER_TURN_MIN_MS, deadlineS * 100));
}
