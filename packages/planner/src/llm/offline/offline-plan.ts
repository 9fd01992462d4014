import type { PlannerAction } from "@waddle/protocol";
import { assembleOfflineAnswer } from "./offline-answer.js";
import { fillOfflineArgs } from "./offline-args.js";
import { getOfflineGraph, toolsOf, type OfflineGraph, type PlanUnit } from "./offline-graph.js";
import { getRunProgress, type RunProgress } from "./offline-progress.js";
import { getTodosAction, type PathEntry } from "./offline-todos.js";
import type { OfflineView } from "./offline-view.js";
import { WRITE_TODOS_TOOL_NAME } from "../../run/todo-state.js";
import { planOfflineTask } from "./offline-tasks.js";
import { planOfflineFollowUp } from "./offline-follow-up.js";
import type { OfflineDecision } from "./offline-decision.js";

export type { OfflineDecision } from "./offline-decision.js";

export interface PlanOfflineInput {
  view: OfflineView;
  /** The action the planner just refused (repair and correction calls), read from the conversation. */
  refusedAction?: PlannerAction;
}

/**
 * The offline model's policy: walk the agent's structure (ordering hints, order and auto-seq edges,
 * parallel groups), skip what already ran, re-plan onto an alternative after a failure, keep the todo list
 * when todos are enabled, and finish with an answer built from the observations. Pure and deterministic.
 */
export function planOfflineAction(input: PlanOfflineInput): OfflineDecision {
  const { view, refusedAction } = input;
  // A chat turn about the previous answer ("Shorten that") is answered from it, before any tool runs.
  const followUp =
    refusedAction === undefined && view.steps.length === 0 ? planOfflineFollowUp(view) : undefined;
  if (followUp !== undefined) return followUp;
  // Background work asked for, or task results to answer from (tasks enabled, nothing refused).
  const task = refusedAction === undefined ? planOfflineTask(view) : undefined;
  if (task !== undefined) return task;
  const graph = getOfflineGraph(view);
  const excluded = new Set<string>();
  // A refused write_todos (planner overuse, bad args) means: stop planning, act.
  const skipTodos = refusedAction?.next_node === WRITE_TODOS_TOOL_NAME;
  for (;;) {
    const decision = decide({ view, graph, excluded, skipTodos });
    if (refusedAction === undefined || decision.action.next_node !== refusedAction.next_node) return decision;
    const repaired = repair({ view, graph, decision, refused: refusedAction });
    if (repaired !== undefined) return repaired;
    const tool = decision.action.next_node;
    if (!graph.tools.has(tool) || excluded.has(tool)) return decision;
    // The same call was refused with every argument we can find: treat the tool as failed and re-plan.
    excluded.add(tool);
  }
}

function decide(input: {
  view: OfflineView;
  graph: OfflineGraph;
  excluded: ReadonlySet<string>;
  skipTodos: boolean;
}): OfflineDecision {
  const { graph, excluded, skipTodos } = input;
  const view = skipTodos ? { ...input.view, todos: { ...input.view.todos, enabled: false } } : input.view;
  const progress = getRunProgress(view);
  for (const tool of excluded) {
    const message = view.lastError?.message ?? "the planner refused every call to it";
    progress.failed.set(tool, { node: tool, error_code: view.lastError?.code ?? "refused", message });
  }
  for (const [tool, count] of progress.refused) {
    if (count >= 2 && !progress.succeeded.has(tool)) {
      progress.failed.set(tool, {
        node: tool,
        error_code: "refused",
        message: "the planner refused it twice",
      });
    }
  }
  const walk = walkPlan(graph, progress);
  const remaining = view.maxIters - view.iteration;
  const finish = (reason: string): OfflineDecision => {
    const answer = assembleOfflineAnswer({ query: view.query, progress, replaced: walk.replaced });
    const args: Record<string, unknown> = { answer: answer.answer };
    if (answer.incomplete) args.requires_followup = true;
    const todos = getTodosAction({ view, graph, progress, path: walk.path, finishing: true, remaining });
    if (todos !== undefined)
      return { action: todos, rationale: "Marking the plan complete before answering." };
    return { action: { next_node: "final_response", args }, rationale: reason };
  };
  if (progress.rejected.size > 0)
    return finish("An approval was rejected, so the run stops here and says so.");
  if (remaining <= 1) return finish("This is the last iteration the budget allows: answering with what ran.");
  if (walk.next === undefined) {
    return finish(walk.stalled ?? "Every step of the agent's plan has run: answering from the results.");
  }
  const todos = getTodosAction({ view, graph, progress, path: walk.path, finishing: false, remaining });
  if (todos !== undefined) return { action: todos, rationale: "Writing the plan down before the next step." };
  return { action: toAction(walk.next, { view, graph, progress }), rationale: walk.reason };
}

interface PlanWalk {
  /** Units on the way, in order, with their state (skipped alternatives left out). */
  path: PathEntry[];
  next?: PlanUnit;
  reason: string;
  /** Why part of the plan cannot run (a failure without a stand-in). */
  stalled?: string;
  /** Tools after a failure without a stand-in: skipped, since they would lack its result. */
  cut: Set<string>;
  replaced: Map<string, string>;
}

function walkPlan(graph: OfflineGraph, progress: RunProgress): PlanWalk {
  const walk: PlanWalk = { path: [], reason: "", cut: new Set(), replaced: new Map() };
  for (const unit of graph.units) {
    if (toolsOf(unit).some((tool) => walk.cut.has(tool))) continue;
    if (unit.kind === "group") visitGroup(walk, { unit, graph, progress });
    else visitTool(walk, { unit, graph, progress });
  }
  return walk;
}

/** Records a failure nothing can stand in for: what comes after it is cut off, the rest goes on. */
function stall(
  walk: PlanWalk,
  input: { tools: readonly string[]; graph: OfflineGraph; reason: string },
): void {
  walk.stalled ??= input.reason;
  for (const tool of input.tools)
    for (const after of input.graph.descendants.get(tool) ?? []) walk.cut.add(after);
}

function visitGroup(
  walk: PlanWalk,
  input: { unit: Extract<PlanUnit, { kind: "group" }>; graph: OfflineGraph; progress: RunProgress },
): void {
  const { unit, progress } = input;
  const attempted = (tool: string): boolean => progress.succeeded.has(tool) || progress.failed.has(tool);
  const pending = unit.members.filter((tool) => !attempted(tool));
  const failed = toolsOf(unit).find((tool) => progress.failed.has(tool));
  if (failed !== undefined) {
    walk.path.push({ unit, state: "failed" });
    const reason = `${failed} failed in ${unit.name}; what needs its results is skipped.`;
    stall(walk, { tools: toolsOf(unit), graph: input.graph, reason });
  } else if (pending.length === 0) {
    walk.path.push({ unit, state: "done" });
  } else if (walk.next !== undefined) {
    walk.path.push({ unit, state: "pending" });
  } else {
    walk.next = pending.length === unit.members.length ? unit : { ...unit, members: pending };
    const join = unit.join ? `, joined by ${unit.join.tool}` : "";
    walk.reason = `Running the parallel group ${unit.name} (${pending.join(", ")})${join}.`;
    walk.path.push({ unit, state: "active" });
  }
}

function visitTool(
  walk: PlanWalk,
  input: { unit: Extract<PlanUnit, { kind: "tool" }>; graph: OfflineGraph; progress: RunProgress },
): void {
  const { unit, progress } = input;
  const tool = unit.tool;
  const alternatives = input.graph.alternatives.get(tool) ?? [];
  if (progress.succeeded.has(tool)) {
    walk.path.push({ unit, state: "done" });
  } else if (progress.failed.has(tool)) {
    walk.path.push({ unit, state: "failed" });
    const covering = alternatives.find((other) => progress.succeeded.has(other));
    const fallback = alternatives.find(
      (other) => !progress.succeeded.has(other) && !progress.failed.has(other),
    );
    if (covering !== undefined) walk.replaced.set(tool, covering);
    else if (fallback === undefined) {
      const reason = `${tool} failed and no tool can stand in for it; what needs its result is skipped.`;
      stall(walk, { tools: [tool], graph: input.graph, reason });
    } else if (walk.next === undefined) {
      walk.replaced.set(tool, fallback);
      walk.next = { kind: "tool", id: `tool:${fallback}`, tool: fallback };
      walk.reason = `${tool} failed; re-planning onto ${fallback}, which can stand in for it.`;
      walk.path.push({ unit: walk.next, state: "active" });
    }
  } else if (
    alternatives.some((other) => progress.succeeded.has(other) || walk.next?.id === `tool:${other}`)
  ) {
    // An alternative already did (or is about to do) this tool's job.
  } else if (walk.next === undefined) {
    walk.next = unit;
    walk.reason = walk.path.some((entry) => entry.state === "done")
      ? `Next in the agent's order: ${tool}.`
      : `Starting with ${tool}, first in the agent's order.`;
    walk.path.push({ unit, state: "active" });
  } else if (!walk.path.some((entry) => entry.unit.id === unit.id)) {
    walk.path.push({ unit, state: "pending" });
  }
}

function toAction(
  unit: PlanUnit,
  context: { view: OfflineView; graph: OfflineGraph; progress: RunProgress },
): PlannerAction {
  const argsFor = (tool: string): Record<string, unknown> =>
    fillOfflineArgs({
      argsSchema: context.graph.tools.get(tool)?.argsSchema ?? {},
      query: context.view.query,
      observations: context.progress.observations,
    });
  if (unit.kind === "tool") return { next_node: unit.tool, args: argsFor(unit.tool) };
  if (unit.members.length === 1 && unit.join === undefined) {
    const [only = ""] = unit.members;
    return { next_node: only, args: argsFor(only) };
  }
  const args: Record<string, unknown> = {
    steps: unit.members.map((node) => ({ node, args: argsFor(node) })),
  };
  if (unit.join !== undefined) {
    args.join = { node: unit.join.tool, args: { ...unit.join.args }, inject: { ...unit.join.inject } };
  }
  return { next_node: "parallel", args };
}

/** A refused tool call gets every required field filled; a refused parallel call runs its first branch alone. */
function repair(input: {
  view: OfflineView;
  graph: OfflineGraph;
  decision: OfflineDecision;
  refused: PlannerAction;
}): OfflineDecision | undefined {
  const { view, graph, decision, refused } = input;
  const tool = graph.tools.get(decision.action.next_node);
  if (tool !== undefined) {
    const observations = getRunProgress(view).observations;
    const args = fillOfflineArgs({
      argsSchema: tool.argsSchema,
      query: view.query,
      observations,
      forceRequired: true,
    });
    if (JSON.stringify(args) === JSON.stringify(refused.args)) return undefined;
    return {
      action: { next_node: tool.name, args },
      rationale: `Repairing the call to ${tool.name}: every required field filled.`,
    };
  }
  if (decision.action.next_node === "parallel") {
    const steps = (decision.action.args.steps ?? []) as PlannerAction["args"][];
    const first = steps[0] as { node?: string; args?: Record<string, unknown> } | undefined;
    if (first?.node === undefined) return undefined;
    return {
      action: { next_node: first.node, args: first.args ?? {} },
      rationale: `The parallel call was refused; running ${first.node} on its own.`,
    };
  }
  return undefined;
}
