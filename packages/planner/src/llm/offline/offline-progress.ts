import type { OfflineFailure, OfflineStep, OfflineView } from "./offline-view.js";
import { WRITE_TODOS_TOOL_NAME } from "../../run/todo-state.js";

/** One tool result the run has seen, newest first in `RunProgress.observations`. */
export interface Observed {
  tool: string;
  value: unknown;
  /** The args the call ran with: after an approval, those the person approved or edited. */
  args?: Record<string, unknown>;
  /** A person approved the call (it ran on a resume), so its args are theirs, not the planner's guess. */
  approved?: boolean;
}

/** What happened so far, per tool: the offline model's memory is the trajectory itself. */
export interface RunProgress {
  succeeded: Set<string>;
  failed: Map<string, OfflineFailure>;
  /** Tools a person refused to approve: never tried again. */
  rejected: Set<string>;
  /** Tools whose action the planner refused before running it, with how often. */
  refused: Map<string, number>;
  /** Joins the planner skipped (a branch failed). */
  skippedJoins: Set<string>;
  /** Newest first; within a parallel step the join comes before its branches. */
  observations: Observed[];
  /** Tool steps that ran (not counting `write_todos`). */
  toolSteps: number;
  lastStepWasTodos: boolean;
}

/** Reads the trajectory into per-tool outcomes. */
export function getRunProgress(view: OfflineView): RunProgress {
  const progress: RunProgress = {
    succeeded: new Set(),
    failed: new Map(),
    rejected: new Set(),
    refused: new Map(),
    skippedJoins: new Set(),
    observations: [],
    toolSteps: 0,
    lastStepWasTodos: view.steps.at(-1)?.next_node === WRITE_TODOS_TOOL_NAME,
  };
  for (const step of view.steps) readStep(progress, step);
  progress.observations.reverse();
  return progress;
}

function readStep(progress: RunProgress, step: OfflineStep): void {
  if (step.next_node === WRITE_TODOS_TOOL_NAME || step.next_node === "final_response") return;
  if (step.refused !== undefined) {
    progress.refused.set(step.next_node, (progress.refused.get(step.next_node) ?? 0) + 1);
    return;
  }
  if (step.branches !== undefined) {
    for (const branch of step.branches)
      record(progress, { ...branch, next_node: branch.node, source: step.source });
    if (step.join?.skipped !== undefined) progress.skippedJoins.add(step.join.node);
    else if (step.join !== undefined)
      record(progress, { ...step.join, next_node: step.join.node, args: {}, source: step.source });
    return;
  }
  record(progress, step);
}

function record(
  progress: RunProgress,
  outcome: {
    next_node: string;
    args: Record<string, unknown>;
    source: string;
    observation?: unknown;
    failure?: OfflineFailure | undefined;
  },
): void {
  const tool = outcome.next_node;
  progress.toolSteps += 1;
  if (isRejection(outcome)) {
    progress.rejected.add(tool);
  } else if (outcome.failure !== undefined) {
    progress.failed.set(tool, outcome.failure);
  } else if (outcome.observation !== undefined) {
    progress.succeeded.add(tool);
    progress.failed.delete(tool);
    progress.observations.push({
      tool,
      value: outcome.observation,
      args: outcome.args,
      approved: outcome.source === "resume",
    });
  }
}

/** The codes the planner gives a call a person refused (`recordRejection`), and the simulated one in tests. */
const REJECTION_CODES = new Set(["rejected_by_user", "approval_rejected"]);

/**
 * An approval a person refused: only the planner's own rejection failure. A tool's error that merely says
 * "Access denied" or "rejected" (a filesystem server outside its roots, an API refusing a request) is a
 * failure like any other, and neither is an observation that happens to contain `approved: false`.
 */
export function isRejection(outcome: {
  observation?: unknown;
  failure?: OfflineFailure | undefined;
}): boolean {
  return outcome.failure !== undefined && REJECTION_CODES.has(outcome.failure.error_code);
}
