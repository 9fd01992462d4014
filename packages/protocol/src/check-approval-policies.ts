import type { AgentSpec } from "./agent-spec.js";
import type { SpecCheckPath as Path, SpecCheckReport as Report } from "./spec-check.js";

/** Tool kinds whose every pause the spec shows: a module, agent, MCP or A2A tool may pause on its own. */
const SPEC_ONLY_KINDS = new Set(["mock", "http", "llm"]);

/**
 * A time limit on waiting (`approval`) that can never apply: the run never pauses (`pauseEnabled: false`),
 * or a tool whose kind only pauses for approval is neither `requiresApproval` nor one of the side effects
 * in `planner.approvalSideEffects`. Warnings: the spec still runs.
 */
export function checkApprovalPolicies(
  spec: AgentSpec,
  toolIndex: (i: number) => number,
  report: Report,
): void {
  const neverPauses = spec.planner.pauseEnabled === false;
  if (spec.approval && neverPauses) {
    report(
      "warning",
      "approval_without_pause",
      ["approval"],
      `"approval" has no effect: planner.pauseEnabled is false, so no run of this agent ever waits for a person.`,
    );
  }
  spec.tools.forEach((tool, i) => {
    if (!tool.approval) return;
    const at: Path = ["tools", toolIndex(i), "approval"];
    const asks = tool.requiresApproval || spec.planner.approvalSideEffects.includes(tool.sideEffects);
    if (neverPauses || (!asks && SPEC_ONLY_KINDS.has(tool.impl.kind))) {
      report(
        "warning",
        "approval_without_pause",
        at,
        neverPauses
          ? `"approval" of ${tool.name} has no effect: planner.pauseEnabled is false.`
          : `"approval" of ${tool.name} has no effect: it never waits for a person. Turn on "requiresApproval", ` +
              `or add "${tool.sideEffects}" to planner.approvalSideEffects.`,
      );
    }
  });
}
