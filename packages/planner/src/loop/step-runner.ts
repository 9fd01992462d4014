import type { ActionDecision, Decision } from "./decision.js";
import { checkAction, type CheckedAction } from "../actions/action-checker.js";
import { createFinalPayload, getLastResultDigest, markModelSources } from "../run/final-payload.js";
import { executeParallel, type JoinRecord } from "../tools/parallel-executor.js";
import type { RunContext } from "./run-context.js";
import type { QueuedAction } from "../run/run-state.js";
import type { PlannerOutcome } from "../run/run-types.js";
import { runTask } from "./steps/task-step.js";
import { emitReasoning, runTool } from "./tool-step.js";
import { afterToolStep } from "./steps/stuck-step.js";
import { checkToolBudgets } from "./budgets/budget-checks.js";
import { finishWithStructuredAnswer } from "./steps/answer-schema-step.js";
import { deliverAnswer } from "./steps/guard-steps.js";

/** The next queued action that still passes its checks (those that fail are dropped). */
export function takeQueued(run: RunContext): Decision | undefined {
  while (run.state.pendingActions.length > 0) {
    const queued = run.state.pendingActions.shift();
    const decision = queued === undefined ? undefined : decideQueued(run, queued);
    if (decision !== undefined) return decision;
  }
  return undefined;
}

/**
 * A queued action (auto-seq, resume) goes through the same checks as an LLM action (hard hints, schemas)
 * and the same events; one that fails them is dropped and the LLM is asked instead.
 */
export function decideQueued(run: RunContext, queued: QueuedAction): Decision | undefined {
  const result = checkAction(queued.action, run.checkContext(true));
  if (!result.ok) {
    const { rejection } = result;
    if (rejection.constraint !== undefined) {
      run.events.emit("constraint_violation", {
        ...rejection.constraint,
        message: `A ${queued.source} action was dropped: ${rejection.code}.`,
        enforced: "rejected",
      });
    }
    return undefined;
  }
  run.events.emit("step_start", { source: queued.source });
  const actionSeq = run.state.actionSeq++;
  run.emitAction(queued.action, queued.source, actionSeq);
  const decision: Decision = {
    kind: "action",
    action: queued.action,
    checked: result.checked,
    source: queued.source,
    actionSeq,
  };
  if (queued.approved === true) decision.approved = true;
  if (queued.resumeInput !== undefined) decision.resumeInput = queued.resumeInput;
  if (queued.remarks !== undefined) decision.remarks = queued.remarks;
  if (queued.approvalNote !== undefined) decision.approvalNote = queued.approvalNote;
  return decision;
}

/**
 * Runs a checked action: answer, tool call, parallel plan or task opcode. Not `async`: it only picks the
 * runner, and an async frame per step for that is measurable.
 */
export function dispatchAction(
  run: RunContext,
  decision: ActionDecision,
): PlannerOutcome | undefined | Promise<PlannerOutcome | undefined> {
  const { checked } = decision;
  switch (checked.kind) {
    case "final": {
      const schema = run.state.answerSchema;
      if (schema !== undefined) return finishWithStructuredAnswer(run, { decision, checked, schema });
      return finishWithAnswer(run, checked);
    }
    case "tool":
      return afterToolStep(run, runTool(run, decision, checked));
    case "parallel":
      return runParallel(run, decision, checked);
    case "task":
      return runTask(run, decision);
  }
}

function finishWithAnswer(
  run: RunContext,
  checked: Extract<CheckedAction, { kind: "final" }>,
): PlannerOutcome | Promise<PlannerOutcome> {
  const written = checked.args.answer ?? checked.args.raw_answer;
  if (written !== undefined && written.trim().length > 0) {
    const payload = createFinalPayload(checked.args, "", checked.invalid);
    if (payload.sources.length > 0) payload.sources = markModelSources(payload.sources, run.state.steps);
    // docs/empty-final-answer.md: an answer the planner inferred (prose, a fragment) says so.
    if (checked.salvaged !== undefined) {
      payload.salvaged = { ...checked.salvaged };
      payload.requires_followup = true;
    }
    return deliverAnswer(run, "answer_complete", payload);
  }
  // docs/empty-final-answer.md: no answer even after the repair asked for one; keep what the run found.
  const digest = getLastResultDigest(run.state.steps);
  const fallback =
    digest === undefined
      ? "The model finished without an answer."
      : `The model finished without writing an answer. Latest result: ${digest}`;
  return deliverAnswer(run, "answer_complete", {
    ...createFinalPayload(checked.args, fallback, checked.invalid),
    requires_followup: true,
  });
}

async function runParallel(
  run: RunContext,
  decision: ActionDecision,
  checked: Extract<CheckedAction, { kind: "parallel" }>,
): Promise<PlannerOutcome | undefined> {
  const calls = checked.branches.length + (checked.join === undefined ? 0 : 1);
  const cost = checked.branches.reduce((total, branch) => total + (branch.tool.costUsd ?? 0), 0);
  const limit = checkToolBudgets(run, cost, calls);
  if (limit !== undefined) return await limit;
  if (checked.requested > checked.limit) {
    run.events.emit("constraint_violation", {
      constraint: "max_parallel",
      message: `${checked.requested} branches were proposed; at most ${checked.limit} run at once.`,
      enforced: "capped",
    });
  }
  const step = run.state.steps.length;
  const startedAt = run.config.clock();
  const names = checked.branches.map((branch) => branch.tool.name).join(", ");
  const summary = run.events.enabled ? `Running ${names} in parallel` : undefined;
  emitReasoning(run, { phase: "act", summary, at: { ts: startedAt, step } });
  const outcome = await executeParallel(run.toolRuntime, {
    parallelId: `parallel-${step}`,
    step,
    branches: checked.branches,
    limit: checked.limit,
    ...(checked.join === undefined ? {} : { join: checked.join }),
    ...(checked.groupId === undefined ? {} : { groupId: checked.groupId }),
  });
  run.state.hops += outcome.hops;
  const joinCost =
    checked.join !== undefined && "tool" in checked.join ? (checked.join.tool.costUsd ?? 0) : 0;
  const joinRan = outcome.hops > checked.branches.length;
  run.state.usage.costUsd += cost + (joinRan ? joinCost : 0);
  run.recordStep({
    action: decision.action,
    source: decision.source,
    observation: outcome.observation,
    branches: outcome.branches,
    ...(outcome.join === undefined ? {} : { join: outcome.join }),
    startedAt,
    remarks: decision.remarks,
  });
  const parallelSummary = `Parallel: ${outcome.successCount} succeeded, ${outcome.failureCount} failed${describeJoin(outcome.join)}`;
  const observed = run.events.enabled ? parallelSummary : undefined;
  emitReasoning(run, { phase: "obs", summary: observed, at: { ts: run.config.clock(), step } });
  if (run.signal.aborted) return run.finishCancelled();
  return undefined;
}

/** How the join went, for the observation's reasoning summary: a failed join is said so, not left out. */
function describeJoin(join: JoinRecord | undefined): string {
  if (join === undefined) return "";
  if (join.skipped !== undefined) return `; join ${join.node} skipped (${join.skipped})`;
  if (join.failure !== undefined) return `; join ${join.node} failed (${join.failure.error_code})`;
  return `; join ${join.node} done`;
}
