import type { RunStatus } from "@waddle/protocol";
import type { CompareState, RunMode } from "../runs/run-store-state.js";

/** One status chip over a shown run: the run's status, with the side's letter in a comparison. */
export interface ShownStatus {
  /** `A` or `B` in a comparison; null for the one shown run. */
  side: "A" | "B" | null;
  status: RunStatus;
  version: number | null;
}

/**
 * The statuses the canvas bar shows: the shown run's (live, or where the replay is), or in a comparison
 * each compared run's recorded status, never that of the run open underneath it (which may be paused, so
 * two finished runs were shown as `paused`). None while a comparison loads.
 */
export function getShownStatuses(input: {
  mode: RunMode;
  /** The open run's status (the store's, else its view's). */
  status: RunStatus | null;
  version: number | null;
  compare: Pick<CompareState, "left" | "right"> | null;
}): ShownStatus[] {
  if (input.mode === "edit") return [];
  if (input.mode === "compare") {
    const { left, right } = input.compare ?? { left: null, right: null };
    if (left === null || right === null) return [];
    return [
      { side: "A", status: left.run.status, version: left.run.agentVersion },
      { side: "B", status: right.run.status, version: right.run.agentVersion },
    ];
  }
  return input.status === null ? [] : [{ side: null, status: input.status, version: input.version }];
}
