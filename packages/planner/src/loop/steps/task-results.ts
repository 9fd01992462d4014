import type { RunContext } from "../run-context.js";
import type { PlannerPause } from "../../run/run-types.js";
import type { PendingMerge } from "../../run/pending-merge.js";
import type { TaskGroupSnapshot } from "../../tasks/task-types.js";
import { getHistoryMessages } from "../../trajectory/trajectory-messages.js";

/** `next_node` of the trajectory notes that carry task results (never an action the LLM can take). */
export const TASK_RESULTS_NODE = "task_results";

/**
 * Folds a merge into the trajectory as a planner note the LLM reads: `{"task_results": {…}}`. REPLACE
 * supersedes the earlier results of the same task or group name (they are stubbed, and the prompt is
 * rebuilt); APPEND adds; a discarded HUMAN_GATED merge leaves a note that a person discarded it.
 */
export function recordMerge(
  run: Pick<RunContext, "state" | "messages" | "recordStep">,
  merge: PendingMerge,
  decision: "apply" | "discard",
  discardMessage = "A person discarded these results: do not rely on them.",
): void {
  const { state } = run;
  let superseded = false;
  if (decision === "apply" && merge.strategy === "REPLACE") {
    for (const step of state.steps) {
      if (step.note !== true || step.next_node !== TASK_RESULTS_NODE || step.args["name"] !== merge.name)
        continue;
      step.observation = { task_results: { name: merge.name, superseded: true } };
      superseded = true;
    }
  }
  const results: Record<string, unknown> = {
    name: merge.name,
    strategy: merge.strategy,
    ...(merge.groupId === undefined ? {} : { groupId: merge.groupId }),
  };
  if (decision === "discard") {
    results["discarded"] = true;
    results["message"] = discardMessage;
  } else {
    results["tasks"] = merge.tasks;
  }
  run.recordStep({
    action: {
      next_node: TASK_RESULTS_NODE,
      args: { name: merge.name, ...(merge.groupId === undefined ? {} : { groupId: merge.groupId }) },
    },
    source: "system",
    observation: { task_results: results },
    note: true,
  });
  if (superseded) run.messages.replaceHistory(getHistoryMessages(state));
}

/**
 * At the start of an iteration: results that arrived go into the trajectory, and a HUMAN_GATED result
 * pauses the run (`approval_required`) until a person approves or rejects it as one batch.
 */
export async function drainTaskResults(run: RunContext): Promise<PlannerPause | undefined> {
  run.tasks?.collect();
  const held = run.state.heldMerges?.[0];
  if (held === undefined) return undefined;
  if (run.config.options.pauseEnabled === false) {
    // docs/pause-resume.md: nobody can approve them, so they are not merged; the model is told why.
    for (const merge of [...(run.state.heldMerges ?? [])]) {
      settleHeldMerge(
        run,
        merge,
        "discard",
        "These results need a person's approval (HUMAN_GATED), and this run cannot pause to ask: they were not merged.",
      );
    }
    return undefined;
  }
  return run.pause({
    reason: "approval_required",
    kind: "task_merge",
    payload: {
      tool: TASK_RESULTS_NODE,
      args: { name: held.name, ...(held.groupId === undefined ? {} : { groupId: held.groupId }) },
      why: "human_gated_merge",
      strategy: held.strategy,
      tasks: held.tasks.map((task) => ({
        taskId: task.taskId,
        name: task.name,
        status: task.status,
        ...(task.result === undefined ? {} : { result: task.result }),
        ...(task.error === undefined ? {} : { error: task.error }),
      })),
      message: "Background results wait for a person: approve to merge them, reject to discard them.",
    },
    merge: held,
  });
}

/** A person decided on the held merge the run paused for. */
export function settleHeldMerge(
  run: Pick<RunContext, "state" | "messages" | "recordStep">,
  merge: PendingMerge,
  decision: "apply" | "discard",
  discardMessage?: string,
): void {
  const held = run.state.heldMerges ?? [];
  const remaining = held.filter((item) => item.mergeId !== merge.mergeId);
  if (remaining.length > 0) run.state.heldMerges = remaining;
  else delete run.state.heldMerges;
  recordMerge(run, merge, decision, discardMessage);
}

/** A `group_report: "none"` group after a retained wait: its status and results, as the poll's answer. */
export function recordGroupPoll(run: Pick<RunContext, "recordStep">, group: TaskGroupSnapshot): void {
  run.recordStep({
    action: { next_node: TASK_RESULTS_NODE, args: { name: group.name, groupId: group.groupId } },
    source: "system",
    observation: {
      task_results: {
        name: group.name,
        groupId: group.groupId,
        report: group.report,
        complete: group.complete,
        tasks: group.tasks.map((task) => ({
          taskId: task.taskId,
          name: task.name,
          status: task.status,
          ...(task.result === undefined ? {} : { result: task.result }),
          ...(task.error === undefined ? {} : { error: task.error }),
        })),
      },
    },
    note: true,
  });
}
