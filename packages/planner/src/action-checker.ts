import {
  FinalResponseArgs,
  isOpcode,
  ParallelArgs,
  type PlannerAction,
  type PlannerOptions,
  type RunEventData,
} from "@waddle/protocol";
import type { z } from "zod";
import type { Catalog, CatalogTool } from "./catalog.js";
import type { ParallelBranchPlan, ParallelJoinPlan } from "./parallel-executor.js";
import { findGroupFor, getOrderingGaps, type ResolvedHints } from "./resolve-hints.js";

type RepairKind = RunEventData<"repair_attempt">["kind"];
interface ConstraintData {
  constraint: RunEventData<"constraint_violation">["constraint"];
  enforced: RunEventData<"constraint_violation">["enforced"];
  node?: string;
}

/** An action that passed every check, ready to dispatch. */
export type CheckedAction =
  | { kind: "final"; args: FinalResponseArgs }
  | { kind: "tool"; tool: CatalogTool; args: Record<string, unknown> }
  | {
      kind: "parallel";
      branches: ParallelBranchPlan[];
      join?: ParallelJoinPlan;
      limit: number;
      requested: number;
      groupId?: string;
    }
  | { kind: "task"; opcode: "task.subagent" | "task.tool" };

/** Why an action was refused, and how to ask the LLM for a better one. */
export interface Rejection {
  code: string;
  message: string;
  /** The call purpose of the re-ask. */
  purpose: "repair" | "arg_fill" | "correction";
  /** For `repair_attempt` events (hint rejections have none: they emit `constraint_violation`). */
  repairKind?: RepairKind;
  constraint?: ConstraintData;
  node?: string;
  /** Counted against `maxConsecutiveArgFailures`. */
  argFailure?: boolean;
  /** Arg-fill: the fields to ask for, and the args so far. */
  argFill?: { node: string; missing: string[]; args: Record<string, unknown> };
  /** A soft hint: its correction keys (one corrective iteration each). */
  softKeys?: readonly string[];
  /** What to do anyway once repairs are exhausted (final answers are never thrown away). */
  fallback?: CheckedAction;
}

export type CheckResult = { ok: true; checked: CheckedAction } | { ok: false; rejection: Rejection };

export interface CheckContext {
  catalog: Catalog;
  hints: ResolvedHints;
  options: PlannerOptions;
  /** Tools called so far in this run (any outcome). */
  visited: ReadonlySet<string>;
  /** Soft-hint corrections already spent. */
  corrections: readonly string[];
  /** Tool calls left under `hopBudget` (Infinity without one). */
  hopsLeft: number;
  /** Set for actions that did not come from the LLM: no soft-hint corrections. */
  skipSoftHints?: boolean;
}

/** Checks an action against the catalog, its schemas and the hints enforced in code. Pure. */
export function checkAction(action: PlannerAction, context: CheckContext): CheckResult {
  switch (action.next_node) {
    case "final_response":
      return checkFinal(action.args);
    case "parallel":
      return checkParallel(action.args, context);
    case "task.subagent":
    case "task.tool":
      return { ok: true, checked: { kind: "task", opcode: action.next_node } };
    default:
      return checkTool(action, context);
  }
}

function checkFinal(args: Record<string, unknown>): CheckResult {
  const parsed = FinalResponseArgs.safeParse(args);
  if (!parsed.success) {
    const bad = new Set(parsed.error.issues.map((issue) => String(issue.path[0])));
    const kept = Object.fromEntries(Object.entries(args).filter(([key]) => !bad.has(key)));
    return reject({
      code: "invalid_final_args",
      message: repairMessage(
        "invalid_final_args",
        `final_response args do not validate: ${formatIssues(parsed.error.issues)}.`,
      ),
      purpose: "repair",
      repairKind: "opcode_args",
      fallback: { kind: "final", args: FinalResponseArgs.parse(kept) },
    });
  }
  if (typeof parsed.data.answer !== "string" || parsed.data.answer.trim().length === 0) {
    return reject({
      code: "missing_answer",
      message: repairMessage(
        "missing_answer",
        "final_response needs args.answer: the text to show the user.",
      ),
      purpose: "repair",
      repairKind: "opcode_args",
      fallback: { kind: "final", args: parsed.data },
    });
  }
  return { ok: true, checked: { kind: "final", args: parsed.data } };
}

function checkTool(action: PlannerAction, context: CheckContext): CheckResult {
  const node = action.next_node;
  const tool = context.catalog.get(node);
  if (tool === undefined) return reject(unknownTool(node, context.catalog));
  if (context.hints.disallowed.has(node)) return reject(disallowed(node));
  const parsed = tool.args.safeParse(action.args);
  if (!parsed.success) return reject(invalidArgs(tool, action.args, parsed.error.issues, context.options));
  const args = parsed.data as Record<string, unknown>;
  if (context.skipSoftHints !== true) {
    const soft = checkSoftHints(tool, args, context);
    if (soft !== undefined) return reject(soft);
  }
  return { ok: true, checked: { kind: "tool", tool, args } };
}

function checkSoftHints(
  tool: CatalogTool,
  args: Record<string, unknown>,
  context: CheckContext,
): Rejection | undefined {
  const { hints, catalog, visited } = context;
  // Keyed by the skipped tools: once the LLM confirmed skipping them, later tools are not held up again.
  const gaps = getOrderingGaps({ hints, tool: tool.name, visited, catalog }).filter(
    (gap) => !context.corrections.includes(`ordering_hints:${gap}`),
  );
  if (gaps.length > 0) {
    return {
      code: "ordering_hint",
      message: correctionMessage(
        "ordering_hints",
        `${tool.name} usually comes after ${gaps.join(", ")}, which ${gaps.length === 1 ? "has" : "have"} not been called yet.`,
      ),
      purpose: "correction",
      constraint: { constraint: "ordering_hints", enforced: "corrected", node: tool.name },
      node: tool.name,
      softKeys: gaps.map((gap) => `ordering_hints:${gap}`),
    };
  }
  if (
    hints.preferred.length > 0 &&
    !hints.preferred.includes(tool.name) &&
    !context.corrections.includes("prefer_nodes")
  ) {
    // A preferred tool is a substitute when it accepts the very same args; only then is the choice a miss.
    const substitute = hints.preferred.find((name) => {
      const candidate = catalog.get(name);
      return (
        candidate !== undefined &&
        !hints.disallowed.has(name) &&
        !visited.has(name) &&
        candidate.args.safeParse(args).success
      );
    });
    if (substitute !== undefined) {
      return {
        code: "prefer_hint",
        message: correctionMessage(
          "prefer_nodes",
          `${substitute} is preferred over ${tool.name} and accepts the same args.`,
        ),
        purpose: "correction",
        constraint: { constraint: "prefer_nodes", enforced: "corrected", node: tool.name },
        node: tool.name,
        softKeys: ["prefer_nodes"],
      };
    }
  }
  return undefined;
}

function checkParallel(rawArgs: Record<string, unknown>, context: CheckContext): CheckResult {
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
  const parsed = tool.args.safeParse(input.args);
  if (!parsed.success) {
    return {
      code: "invalid_args",
      message: repairMessage(
        "invalid_args",
        `${where}: args of ${node} did not validate: ${formatIssues(parsed.error.issues)}.`,
      ),
      purpose: "repair",
      repairKind: "args",
      node,
      argFailure: true,
    };
  }
  return { tool, args: parsed.data as Record<string, unknown> };
}

/** The LLM's join, else the group's; an unusable join is skipped later, never fatal (seed 000, OQ 3). */
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

function unknownTool(node: string, catalog: Catalog, where?: string): Rejection {
  return {
    code: "unknown_tool",
    message: JSON.stringify({
      error: {
        code: "unknown_tool",
        message: `${where === undefined ? "" : `${where}: `}"${node}" is not a tool of this agent.`,
        available_tools: catalog.names,
        opcodes: ["final_response", "parallel"],
      },
      instruction: "Choose one of available_tools or an opcode. Return corrected JSON.",
    }),
    purpose: "repair",
    repairKind: "unknown_tool",
    node,
  };
}

function disallowed(node: string, where?: string): Rejection {
  return {
    code: "disallowed_node",
    message: correctionMessage(
      "disallow_nodes",
      `${where === undefined ? "" : `${where}: `}${node} is disallowed: never call it.`,
    ),
    purpose: "correction",
    constraint: { constraint: "disallow_nodes", enforced: "rejected", node },
    node,
  };
}

function invalidArgs(
  tool: CatalogTool,
  args: Record<string, unknown>,
  issues: readonly z.core.$ZodIssue[],
  options: PlannerOptions,
): Rejection {
  const missing = issues
    .filter(
      (issue) =>
        issue.code === "invalid_type" && issue.path.length === 1 && args[String(issue.path[0])] === undefined,
    )
    .map((issue) => String(issue.path[0]));
  const onlyMissing = missing.length > 0 && missing.length === issues.length;
  if (options.argFill && onlyMissing) {
    return {
      code: "missing_args",
      message: JSON.stringify({
        error: {
          code: "missing_args",
          message: `${tool.name} is missing required args: ${missing.join(", ")}.`,
        },
        instruction: `Reply with a JSON object holding only these fields: ${missing.join(", ")}.`,
      }),
      purpose: "arg_fill",
      repairKind: "arg_fill",
      node: tool.name,
      argFailure: true,
      argFill: { node: tool.name, missing, args },
    };
  }
  return {
    code: "invalid_args",
    message: repairMessage(
      "invalid_args",
      `args did not validate for ${tool.name}: ${formatIssues(issues)}.`,
    ),
    purpose: "repair",
    repairKind: "args",
    node: tool.name,
    argFailure: true,
  };
}

function reject(rejection: Rejection): CheckResult {
  return { ok: false, rejection };
}

function repairMessage(code: string, message: string): string {
  return JSON.stringify({ error: { code, message }, instruction: "Return corrected JSON." });
}

/** Soft hints (ordering, prefer) may be confirmed by repeating the action; hard ones need another action. */
const SOFT_HINTS = new Set(["ordering_hints", "prefer_nodes"]);

function correctionMessage(hint: string, message: string): string {
  return JSON.stringify({
    constraint: { hint, message },
    instruction: SOFT_HINTS.has(hint)
      ? "Reply with the action to take now: a corrected one, or the same one if it is right."
      : "This is enforced: reply with a different action.",
  });
}

/** `path: message` pairs, at most five, for repair messages. */
export function formatIssues(issues: readonly z.core.$ZodIssue[]): string {
  const shown = issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join(".") : "(root)"}: ${issue.message}`);
  return issues.length > 5 ? `${shown.join("; ")}; and ${issues.length - 5} more` : shown.join("; ");
}
