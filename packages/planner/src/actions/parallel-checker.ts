import { isOpcode, ParallelArgs } from "@waddle/protocol";
import type { CheckContext, CheckedAction, CheckResult, Rejection } from "./action-check-types.js";
import type { ParallelBranchPlan, ParallelJoinPlan } from "../tools/parallel-plan.js";
import { findGroupFor } from "../catalog/resolve-hints.js";
import { correctionMessage, disallowed, reject, repairMessage, unknownTool } from "./rejections.js";
import { formatIssues } from "../util/format-issues.js";
import { screenPlaceholders } from "./screen-placeholders.js";

/**
 * Checks a `parallel` action: its shape, every branch (opcodes, unknown and disallowed tools,
 * sequential_only, approval, args), the hop budget, and resolves the effective limit and join. Pure.
 */
export function checkParallel(rawArgs: Record<string, unknown>, context: CheckContext): CheckResult {
  const parsed = ParallelArgs.safeParse(rawArgs);
  if (!parsed.success) {
    return reject({
      code: "invalid_parallel_args",
      message: repairMessage(
        "invalid_parallel_args",
        `parallel args do not validate: ${formatIssues(parsed.error.issues)}. Expected {"steps": [{"node", "args"}, …], "join"?: {"node", "args", "inject"}}.`,
      ),
      purpose: "repair",
      repairKind: "opcode_args",
    });
  }
  const { steps, join } = parsed.data;
  const branches: ParallelBranchPlan[] = [];
  for (const [index, step] of steps.entries()) {
    const refused = checkBranch({ node: step.node, args: step.args, index, total: steps.length, context });
    if ("code" in refused) return reject(refused);
    branches.push(refused);
  }
  const needed = branches.length + (join === undefined ? 0 : 1);
  if (context.hopsLeft > 0 && needed > context.hopsLeft) {
    return reject({
      code: "hop_budget",
      message: correctionMessage(
        "hop_budget",
        `Only ${context.hopsLeft} tool calls remain in the hop budget; this plan needs ${needed}.`,
      ),
      purpose: "correction",
      constraint: { constraint: "hop_budget", enforced: "rejected" },
    });
  }
  const nodes = branches.map((branch) => branch.tool.name);
  const group = findGroupFor(context.hints, nodes);
  const limit = Math.max(
    1,
    Math.min(
      context.options.maxParallelCap,
      context.hints.maxParallel ?? Infinity,
      group?.maxParallel ?? Infinity,
    ),
  );
  const checked: CheckedAction & { kind: "parallel" } = {
    kind: "parallel",
    branches,
    limit,
    requested: branches.length,
  };
  if (group?.id !== undefined) checked.groupId = group.id;
  const joinPlan = resolveJoin(join, group, context);
  if (joinPlan !== undefined) checked.join = joinPlan;
  return { ok: true, checked };
}

function checkBranch(input: {
  node: string;
  args: Record<string, unknown>;
  index: number;
  total: number;
  context: CheckContext;
}): ParallelBranchPlan | Rejection {
  const { node, index, context } = input;
  const where = `steps[${index}]`;
  if (isOpcode(node)) {
    return {
      code: "opcode_in_parallel",
      message: repairMessage(
        "opcode_in_parallel",
        `${where}: "${node}" is an opcode; parallel steps must be tools.`,
      ),
      purpose: "repair",
      repairKind: "opcode_args",
    };
  }
  const tool = context.catalog.get(node);
  if (tool === undefined) return unknownTool(node, context.catalog, where);
  if (context.hints.disallowed.has(node)) return disallowed(node, where);
  if (input.total > 1 && context.hints.sequentialOnly.has(node)) {
    return {
      code: "sequential_only",
      message: correctionMessage(
        "sequential_only",
        `${where}: ${node} must never run in parallel: call it on its own.`,
      ),
      purpose: "correction",
      constraint: { constraint: "sequential_only", enforced: "rejected", node },
      node,
    };
  }
  if (tool.requiresApproval || context.options.approvalSideEffects.includes(tool.sideEffects)) {
    return {
      code: "approval_in_parallel",
      message: correctionMessage(
        "approval_in_parallel",
        `${where}: ${node} needs a person's approval: call it on its own.`,
      ),
      purpose: "correction",
      node,
    };
  }
  const screened = context.skipSoftHints === true ? undefined : screenPlaceholders(tool, input.args, where);
  if (screened?.rejection !== undefined) return screened.rejection;
  const parsed = tool.args.safeParse(screened?.args ?? input.args);
  if (!parsed.success) {
    const held =
      screened === undefined || screened.fields.length === 0
        ? ""
        : ` (${screened.fields.join(", ")} held placeholders, not values)`;
    return {
      code: "invalid_args",
      message: repairMessage(
        "invalid_args",
        `${where}: args of ${node} did not validate: ${formatIssues(parsed.error.issues)}${held}.`,
      ),
      purpose: "repair",
      repairKind: "args",
      node,
      argFailure: true,
    };
  }
  return { tool, args: parsed.data as Record<string, unknown> };
}

/** The LLM's join, else the group's; an unusable join is skipped later, never fatal (docs/parallel-joins.md). */
function resolveJoin(
  join: ParallelArgs["join"],
  group: ReturnType<typeof findGroupFor>,
  context: CheckContext,
): ParallelJoinPlan | undefined {
  const spec =
    join ??
    (group?.join === undefined
      ? undefined
      : { node: group.join.tool, args: group.join.args, inject: group.join.inject });
  if (spec === undefined) return undefined;
  const tool = context.catalog.get(spec.node);
  if (tool === undefined) return { node: spec.node, unusable: "unknown_tool" };
  if (context.hints.disallowed.has(spec.node)) return { node: spec.node, unusable: "disallowed" };
  if (tool.requiresApproval || context.options.approvalSideEffects.includes(tool.sideEffects)) {
    return { node: spec.node, unusable: "approval_required" };
  }
  const plan: ParallelJoinPlan = { tool, args: spec.args };
  if (spec.inject !== undefined) plan.inject = spec.inject;
  if (join === undefined && group !== undefined) plan.fromGroup = group.id ?? group.name ?? "group";
  return plan;
}
