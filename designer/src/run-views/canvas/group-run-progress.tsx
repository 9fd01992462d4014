import type { ParallelGroup } from "@waddle/protocol";
import type { ReactElement } from "react";
import { useGroupRunProgress } from "./use-run-canvas.js";

const JOIN_LABELS = {
  ok: "join ok",
  skipped: "join skipped",
  error: "join failed",
  pending: "joining…",
  none: "",
} as const;

/** A parallel group's branch progress while a run is shown: `2 of 3 done`, failures, the join's outcome. */
export function GroupRunProgress({ group }: { group: ParallelGroup }): ReactElement | null {
  const progress = useGroupRunProgress(group);
  if (!progress) return null;
  if (progress.runs === 0)
    return (
      <span className="group-run is-idle" data-testid={`group-run-${group.id}`} data-done={0} data-total={0}>
        not run
      </span>
    );
  const tone = progress.failed > 0 ? " has-failures" : progress.finished ? " is-finished" : " is-running";
  const join = JOIN_LABELS[progress.joinStatus];
  return (
    <span
      className={`group-run${tone}`}
      data-testid={`group-run-${group.id}`}
      data-done={progress.done}
      data-total={progress.total}
      data-failed={progress.failed}
      role="status"
      title={progress.runs > 1 ? `Fanned out ${progress.runs} times; the latest is shown` : undefined}
    >
      {progress.finished ? null : <span className="run-spinner" aria-hidden />}
      {progress.done} of {progress.total} done
      {progress.failed > 0 ? ` · ${progress.failed} failed` : ""}
      {join ? ` · ${join}` : ""}
    </span>
  );
}
