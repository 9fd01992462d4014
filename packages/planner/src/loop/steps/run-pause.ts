import type { RunEventData } from "@waddle/protocol";
import { createSavedRun, type PauseRecord } from "../../run/paused-state.js";
import type { RunContext } from "../run-context.js";
import type { PlannerPause } from "../../run/run-types.js";
import { scrubSecrets } from "../../secrets/secret-scrubber.js";

type Constraint = RunEventData<"constraint_violation">["constraint"];

/**
 * Pauses a run: background tasks stop (results that arrived are kept in the state, unfinished tasks are
 * cancelled and listed as `cancelledTasks`), `pause` is emitted, and the state is saved as plain JSON
 * under a fresh single-use resume token. The caller returns the `PlannerPause`.
 */
export async function pauseRun(run: RunContext, record: PauseRecord): Promise<PlannerPause> {
  const stopped = run.tasks?.close({ keepResults: true, reason: "paused" }) ?? [];
  const payload = stopped.length === 0 ? record.payload : { ...record.payload, cancelledTasks: stopped };
  const safePayload = scrubSecrets(payload, run.secrets);
  const resumeToken = run.config.createResumeToken();
  const shown = run.events.enabled ? (run.events.preview(safePayload) as Record<string, unknown>) : {};
  run.events.emit("pause", { reason: record.reason, payload: shown, resumeToken });
  const metadata = run.metadata();
  const saved: PauseRecord = { ...record, payload: safePayload };
  if (record.action !== undefined) saved.action = scrubSecrets(record.action, run.secrets);
  await run.config.stateStore.save(resumeToken, createSavedRun(run.state, saved));
  return { kind: "pause", reason: record.reason, payload: safePayload, resumeToken, metadata };
}

/**
 * Hints that make progress impossible pause the run before its first LLM call. With `pauseEnabled: false`
 * the conflicts are reported and the run goes on under the hints as they are (docs/pause-resume.md).
 */
export function pauseForConflicts(run: RunContext): Promise<PlannerPause> | undefined {
  const conflicts = run.config.hintConflicts;
  const enforced = run.config.options.pauseEnabled === false ? "rejected" : "paused";
  for (const conflict of conflicts) {
    const constraint: Constraint =
      conflict.kind === "sequential_in_group" ? "sequential_only" : "disallow_nodes";
    run.events.emit("constraint_violation", { constraint, message: conflict.message, enforced });
  }
  if (enforced === "rejected") {
    run.state.conflictsAcknowledged = true;
    return undefined;
  }
  return pauseRun(run, {
    reason: "constraints_conflict",
    kind: "constraints",
    payload: {
      conflicts: conflicts.map((conflict) => ({ ...conflict })),
      message: "The planning hints make progress impossible: relax them and resume, or change the agent.",
    },
  });
}
