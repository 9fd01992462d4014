import type { Rating, RunRecord, RunStatus } from "@waddle/protocol";

/** When a run was made, for newest-first order (a run not yet started sorts by its creation). */
// A run that tells no time yet is the newest.
const getRunTime = (run: RunRecord): string => run.createdAt ?? run.startedAt ?? "\uffff";

/**
 * Which runs the agent's run list holds: some statuses (null: all), test cases' runs or not, and only
 * those a public chat visitor rated so (null: any).
 */
export interface RunListFilter {
  statuses?: readonly RunStatus[] | null;
  showTestRuns?: boolean;
  rating?: Rating | null;
  /** Only the runs this trigger fired (null: any). */
  trigger?: string | null;
}

/** The list filter of a run store's state. */
export function getRunListFilter(state: {
  statusFilter: readonly RunStatus[] | null;
  showTestRuns: boolean;
  ratingFilter: Rating | null;
  triggerFilter?: string | null;
}): RunListFilter {
  return {
    statuses: state.statusFilter,
    showTestRuns: state.showTestRuns,
    rating: state.ratingFilter,
    trigger: state.triggerFilter ?? null,
  };
}

/**
 * The agent's run list with `run` put in (replacing the one of its id) or taken out when it no longer
 * passes the filter (a test case's run passes only when test runs are shown); newest first. Pure: returns
 * a new array, or the same one when nothing changed.
 */
export function upsertRun(
  runs: readonly RunRecord[],
  run: RunRecord,
  filter: RunListFilter = {},
): RunRecord[] {
  const index = runs.findIndex((candidate) => candidate.id === run.id);
  const { statuses = null, showTestRuns = false, rating = null, trigger = null } = filter;
  const passes =
    (statuses === null || statuses.includes(run.status)) &&
    (showTestRuns || run.purpose !== "test") &&
    (rating === null || run.rating?.rating === rating) &&
    (trigger === null || run.trigger?.id === trigger);
  if (!passes)
    return index === -1 ? (runs as RunRecord[]) : runs.filter((candidate) => candidate.id !== run.id);
  const next = index === -1 ? [run, ...runs] : runs.map((candidate, at) => (at === index ? run : candidate));
  return sortRuns(next);
}

/** Newest first; runs with the same time keep their order. */
export function sortRuns(runs: readonly RunRecord[]): RunRecord[] {
  return [...runs].sort((left, right) => {
    const a = getRunTime(left);
    const b = getRunTime(right);
    return a === b ? 0 : a < b ? 1 : -1;
  });
}
