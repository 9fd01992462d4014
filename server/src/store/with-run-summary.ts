import { TERMINAL_RUN_STATUSES, type RunRecord } from "@waddle/protocol";

/**
 * The run with its history summary, `steps` and `durationMs`, when known: from the metadata of its finish,
 * or of its pause while it has not ended since; else, for a run that ended without a finish (failed,
 * interrupted), `durationMs` is the wall-clock time from `startedAt` to `finishedAt`. Derived on every read
 * rather than stored, so that it can never disagree with the result it comes from.
 */
export function withRunSummary(run: RunRecord): RunRecord {
  const { result } = run;
  const metadata =
    result?.kind === "finish" || !TERMINAL_RUN_STATUSES.has(run.status) ? result?.metadata : undefined;
  if (metadata) return { ...run, steps: metadata.steps, durationMs: metadata.durationMs };
  if (run.startedAt === null || run.finishedAt === null) return run;
  const durationMs = Date.parse(run.finishedAt) - Date.parse(run.startedAt);
  return Number.isFinite(durationMs) && durationMs >= 0 ? { ...run, durationMs } : run;
}
