import type { PlannerAction, SideEffect } from "@waddle/protocol";
import type { CheckedAction } from "../../actions/action-check-types.js";
import type { ActionDecision } from "../decision.js";
import type { InFlightAction } from "../../run/run-checkpoint.js";

const RANK: Record<SideEffect, number> = { pure: 0, read: 1, write: 2, stateful: 3, external: 4 };

/** What a decided action is about to do to the world, for `InFlightAction`. */
export function getInFlightAction(decision: ActionDecision): InFlightAction {
  const { checked } = decision;
  const { tool, sideEffects } = describeChecked(checked, decision.action);
  const inFlight: InFlightAction = { action: decision.action, source: decision.source, tool, sideEffects };
  if (decision.approved === true) inFlight.approved = true;
  if (decision.resumeInput !== undefined) inFlight.resumeInput = decision.resumeInput;
  return inFlight;
}

function describeChecked(
  checked: CheckedAction,
  action: PlannerAction,
): { tool: string; sideEffects: SideEffect } {
  if (checked.kind === "tool") return { tool: checked.tool.name, sideEffects: checked.tool.sideEffects };
  if (checked.kind === "parallel") {
    const tools = checked.branches.map((branch) => branch.tool);
    if (checked.join !== undefined && "tool" in checked.join) tools.push(checked.join.tool);
    const sideEffects = tools.reduce<SideEffect>(
      (most, tool) => (RANK[tool.sideEffects] > RANK[most] ? tool.sideEffects : most),
      "pure",
    );
    return { tool: tools.map((tool) => tool.name).join(", "), sideEffects };
  }
  return { tool: action.next_node, sideEffects: "stateful" };
}
