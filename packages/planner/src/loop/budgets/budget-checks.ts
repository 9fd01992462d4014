// Every budget check of the loop (docs/budgets.md): before a step, before a tool, before a planning call,
// after a planning call. The deadline, the hop budget and maxIters end the run with an answer turn; the cost
// ceiling and the token budget end it at once, as one more call is what they forbid.
import { createFallbackPayload } from "../../run/final-payload.js";
import type { PlannerOutcome } from "../../run/run-types.js";
import type { ConstraintName, RunContext } from "../run-context.js";
import { deliverAnswer } from "../steps/guard-steps.js";
import { finishWithAnswerTurn } from "./budget-answer.js";
import { getDeadlineMessage, isPastDeadline } from "./deadline.js";

type Stop = PlannerOutcome | Promise<PlannerOutcome> | undefined;

/** Deadline, cost ceiling and maxIters, checked before every step. */
export function checkStepBudgets(run: RunContext): Stop {
  if (isPastDeadline(run)) return finishAtDeadline(run);
  const maxCost = run.config.hints.maxCostUsd;
  if (maxCost !== undefined && run.state.usage.costUsd >= maxCost) {
    return finishByConstraint(run, "cost_budget", `The cost ceiling of $${maxCost} has been reached.`);
  }
  const { maxIters } = run.config.options;
  if (run.state.iteration >= maxIters) {
    const message = `The run used all ${maxIters} steps (maxIters) without an answer.`;
    return finishWithAnswerTurn(run, { constraint: "max_iters", message, reason: "max_iters" });
  }
  return undefined;
}

/** Hop budget, cost ceiling and deadline, checked before `calls` tool calls costing `costUsd` run. */
export function checkToolBudgets(run: RunContext, costUsd: number, calls: number): Stop {
  const { hopBudget } = run.config.options;
  if (hopBudget !== undefined && run.state.hops + calls > hopBudget) {
    const message = `The hop budget of ${hopBudget} tool calls is used up.`;
    return finishWithAnswerTurn(run, { constraint: "hop_budget", message, reason: "budget_exhausted" });
  }
  const maxCost = run.config.hints.maxCostUsd;
  if (maxCost !== undefined && costUsd > 0 && run.state.usage.costUsd + costUsd > maxCost) {
    const message = `The next tool calls would pass the cost ceiling of $${maxCost}.`;
    return finishByConstraint(run, "cost_budget", message);
  }
  if (isPastDeadline(run)) return finishAtDeadline(run);
  return undefined;
}

/** Tool calls the hop budget still allows (the action checker refuses a bigger parallel plan). */
export function getHopsLeft(run: Pick<RunContext, "config" | "state">): number {
  const { hopBudget } = run.config.options;
  return hopBudget === undefined ? Infinity : Math.max(0, hopBudget - run.state.hops);
}

/** The token budget: the next prompt must fit (history compaction runs first, docs/summarization.md). */
export function checkPromptBudget(run: RunContext): PlannerOutcome | Promise<PlannerOutcome> | undefined {
  const budget = run.config.options.tokenBudget;
  const tokens = run.messages.estimatedTokens;
  if (budget === undefined || tokens <= budget) return undefined;
  const message = `The conversation needs about ${tokens} tokens, over the token budget of ${budget}.`;
  return finishByConstraint(run, "token_budget", message);
}

/**
 * The cost ceiling after a planning call: reached, the run ends. The caller skips this for a
 * `final_response`, which is already paid for.
 */
export function checkCostAfterCall(run: RunContext): PlannerOutcome | Promise<PlannerOutcome> | undefined {
  const max = run.config.hints.maxCostUsd;
  const spent = run.state.usage.costUsd;
  if (max === undefined || spent < max) return undefined;
  const message = `The cost ceiling of $${max} has been reached ($${spent.toFixed(4)} spent).`;
  return finishByConstraint(run, "cost_budget", message);
}

/** The deadline stops the work: the answer turn, if there is still time for it. */
export function finishAtDeadline(run: RunContext): Promise<PlannerOutcome> {
  const message = getDeadlineMessage(run);
  return finishWithAnswerTurn(run, { constraint: "deadline", message, reason: "budget_exhausted" });
}

/** A budget that forbids even the answer turn: `budget_exhausted` with the canned message and latest result. */
function finishByConstraint(
  run: RunContext,
  constraint: ConstraintName,
  message: string,
): PlannerOutcome | Promise<PlannerOutcome> {
  run.events.emit("constraint_violation", { constraint, message, enforced: "finished" });
  return deliverAnswer(run, "budget_exhausted", createFallbackPayload({ message, steps: run.state.steps }));
}
