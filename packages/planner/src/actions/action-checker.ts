import { FinalResponseArgs, type PlannerAction, type PlannerOptions } from "@waddle/protocol";
import type { z } from "zod";
import type { CheckContext, CheckResult, Rejection } from "./action-check-types.js";
import type { CatalogTool } from "../catalog/catalog.js";
import { checkParallel } from "./parallel-checker.js";
import { correctionMessage, disallowed, reject, repairMessage, unknownTool } from "./rejections.js";
import { formatIssues } from "../util/format-issues.js";
import { getOrderingGaps } from "../catalog/resolve-hints.js";

export type { CheckContext, CheckedAction, CheckResult, Rejection } from "./action-check-types.js";

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
  // No ordering or preference hints (most agents): nothing to check, nothing to allocate.
  if (hints.ordering.length === 0 && hints.orderSources.size === 0 && hints.preferred.length === 0) {
    return undefined;
  }
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
