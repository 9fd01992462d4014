import type { RunEvent, RunRecord } from "@waddle/protocol";

/** The run an observed event belongs to, as this process read it, and its redaction (its secrets too). */
export interface ObservedRun {
  record: RunRecord;
  redact<T>(value: T): T;
}

/**
 * Sees every event of the runs this process records (planner and server events alike), as it is emitted,
 * before it is stored: traces and metrics are built from these, so that the planner knows nothing of
 * them. Called synchronously on the run's path: it must be cheap and must not throw.
 */
export interface RunObserver {
  onEvent(event: RunEvent, run: ObservedRun): void;
  /** This process stopped executing the run (ended, paused, handed over or crashed). */
  onExecutionEnd?(runId: string): void;
}

/** One observer that calls each of `observers`, each guarded: a failing observer never stops a run. */
export function combineRunObservers(
  observers: readonly (RunObserver | undefined)[],
): RunObserver | undefined {
  const present = observers.filter((observer): observer is RunObserver => observer !== undefined);
  if (present.length === 0) return undefined;
  return {
    onEvent(event, run) {
      for (const observer of present) {
        try {
          observer.onEvent(event, run);
        } catch {
          // Observability is never worth a run.
        }
      }
    },
    onExecutionEnd(runId) {
      for (const observer of present) {
        try {
          observer.onExecutionEnd?.(runId);
        } catch {
          // As above.
        }
      }
    },
  };
}
