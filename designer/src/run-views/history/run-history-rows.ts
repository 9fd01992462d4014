import { getRunTokens, type Rating, type RunRecord, type RunStatus, type RunTrigger } from "@waddle/protocol";

/** The status chips of the run history; each stands for one or more run statuses. */
export const HISTORY_FILTERS = [
  { value: "all", label: "All", statuses: [] },
  { value: "active", label: "Active", statuses: ["queued", "running", "paused"] },
  { value: "finished", label: "Finished", statuses: ["finished"] },
  { value: "failed", label: "Failed", statuses: ["failed", "interrupted"] },
  { value: "cancelled", label: "Cancelled", statuses: ["cancelled"] },
] as const satisfies readonly { value: string; label: string; statuses: readonly RunStatus[] }[];

export type HistoryFilter = (typeof HISTORY_FILTERS)[number]["value"];

/** What one history row shows; `null` where the run does not say (yet). */
export interface RunHistoryRow {
  id: string;
  status: RunStatus;
  query: string;
  agentVersion: number;
  startedAt: string | null;
  /** Sort key: start time, else creation time (queued runs), in ms. */
  sortTime: number;
  durationMs: number | null;
  steps: number | null;
  llmCalls: number;
  tokens: number;
  costUsd: number;
  live: boolean;
  offline: boolean;
  /** A test case's run (listed only with "Show test runs"). */
  test: boolean;
  /** Pauses a person approved with other args (`edit`): the row marks the run. */
  edited: number;
  /** Pauses a person turned down (`reject`): the row marks the run. */
  rejected: number;
  /** A public chat visitor's rating of the answer, and their comment. */
  rating: Rating | null;
  ratingComment: string | null;
  /** The schedule or webhook trigger that fired the run, if one did. */
  trigger: RunTrigger | null;
}

/** True when the run may still change (its events are still coming or it waits for a decision). */
export function isActiveStatus(status: RunStatus): boolean {
  return status === "queued" || status === "running" || status === "paused";
}

/** Whether a run's status falls under a history filter. */
export function isRunInFilter(status: RunStatus, filter: HistoryFilter): boolean {
  const entry = HISTORY_FILTERS.find((item) => item.value === filter);
  if (!entry || entry.statuses.length === 0) return true;
  return (entry.statuses as readonly RunStatus[]).includes(status);
}

/** One row's figures from a run record; a running run's duration counts up to `now`. */
export function getRunHistoryRow(run: RunRecord, now: number): RunHistoryRow {
  const started = run.startedAt ? Date.parse(run.startedAt) : Number.NaN;
  const finished = run.finishedAt ? Date.parse(run.finishedAt) : Number.NaN;
  const created = run.createdAt ? Date.parse(run.createdAt) : Number.NaN;
  let durationMs: number | null = run.durationMs ?? null;
  if (durationMs === null && run.result?.metadata) durationMs = run.result.metadata.durationMs;
  if (durationMs === null && !Number.isNaN(started)) {
    if (!Number.isNaN(finished)) durationMs = Math.max(0, finished - started);
    else if (run.status === "running") durationMs = Math.max(0, now - started);
  }
  return {
    id: run.id,
    status: run.status,
    query: run.query,
    agentVersion: run.agentVersion,
    startedAt: run.startedAt ?? run.createdAt ?? null,
    sortTime: Number.isNaN(started) ? (Number.isNaN(created) ? 0 : created) : started,
    durationMs,
    steps: run.steps ?? run.result?.metadata?.steps ?? null,
    llmCalls: run.usage.llmCalls,
    tokens: getRunTokens(run.usage),
    costUsd: run.usage.costUsd,
    live: isActiveStatus(run.status),
    offline: run.offline === true,
    test: run.purpose === "test",
    edited: run.decisions?.edit ?? 0,
    rejected: run.decisions?.reject ?? 0,
    rating: run.rating?.rating ?? null,
    ratingComment: run.rating?.comment ?? null,
    trigger: run.trigger ?? null,
  };
}

/** The rows to show: the runs under `filter`, newest first (ties keep their order by id, stable). */
export function getRunHistoryRows(
  runs: readonly RunRecord[],
  options: { filter: HistoryFilter; now: number },
): RunHistoryRow[] {
  return runs
    .filter((run) => isRunInFilter(run.status, options.filter))
    .map((run) => getRunHistoryRow(run, options.now))
    .sort((a, b) => b.sortTime - a.sortTime || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

/** How many runs each filter chip would show. */
export function getFilterCounts(runs: readonly RunRecord[]): Record<HistoryFilter, number> {
  const counts = Object.fromEntries(HISTORY_FILTERS.map((item) => [item.value, 0])) as Record<
    HistoryFilter,
    number
  >;
  for (const run of runs) {
    for (const item of HISTORY_FILTERS) if (isRunInFilter(run.status, item.value)) counts[item.value] += 1;
  }
  return counts;
}

/**
 * The compare picks after toggling `runId`: at most two, the oldest pick dropped when a third comes, so
 * the last two clicked are compared.
 */
export function toggleComparePick(picks: readonly string[], runId: string): string[] {
  if (picks.includes(runId)) return picks.filter((id) => id !== runId);
  return [...picks, runId].slice(-2);
}
