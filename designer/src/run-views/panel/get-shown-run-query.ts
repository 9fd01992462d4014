import type { RunRecord } from "@waddle/protocol";
import type { RunView } from "../../runs/fold/run-view.js";

/**
 * The query the shown run was given: its record's when the record is this run's (a replay before its first
 * event has not folded `run_started` yet), else the one its events carry. Never the composer's box or the
 * agent's sample queries, which are for the next run.
 */
export function getShownRunQuery(
  run: Pick<RunRecord, "id" | "query"> | null,
  view: Pick<RunView, "runId" | "query"> | null,
): string {
  if (view === null) return "";
  return run !== null && run.id === view.runId ? run.query : view.query;
}
