import type { AgentSpec, ToolSpec } from "./agent-spec.js";
import { checkApprovalPolicies } from "./check-approval-policies.js";
import { checkLlmConfigs } from "./check-llm-configs.js";
import { checkAutoSeqFit } from "./check-auto-seq-fit.js";
import { checkToolSchema, checkToolSpec } from "./check-tool-spec.js";
import { formatJsonPath } from "./json-path.js";
import { checkGroupJoin } from "./check-group-join.js";
import { checkHintConflicts } from "./check-hint-conflicts.js";
import { checkGuards } from "./check-guards.js";
import { getReservedNameMessage, READ_ONLY_SIDE_EFFECTS, RESERVED_TOOL_NAMES } from "./names.js";
import type { SpecCheckPath as Path, SpecCheckReport as Report } from "./spec-check.js";
import type { SpecIssue, SpecIssueTarget } from "./spec-issue.js";

/** Where each element of the checked arrays stood in the original input (when some were dropped). */
export interface SourceIndices {
  tools?: number[];
  edges?: number[];
  groups?: number[];
}

/** Checks what a schema cannot: names, references between tools, edges, groups and hints, and schemas. */
export function checkSpecReferences(spec: AgentSpec, indices: SourceIndices = {}): SpecIssue[] {
  const issues: SpecIssue[] = [];
  const toolIndex = (i: number) => indices.tools?.[i] ?? i;
  const edgeIndex = (i: number) => indices.edges?.[i] ?? i;
  const groupIndex = (i: number) => indices.groups?.[i] ?? i;
  const targetOf = (path: Path): SpecIssueTarget => {
    const [head, index] = path;
    if (head === "tools" && typeof index === "number") {
      const tool = spec.tools.find((_, i) => toolIndex(i) === index);
      return tool ? { kind: "tool", id: tool.name } : { kind: "tool" };
    }
    if (head === "edges" && typeof index === "number") {
      const edge = spec.edges.find((_, i) => edgeIndex(i) === index);
      return edge ? { kind: "edge", id: edge.id } : { kind: "edge" };
    }
    if (head === "groups" && typeof index === "number") {
      const group = spec.groups.find((_, i) => groupIndex(i) === index);
      return group ? { kind: "group", id: group.id } : { kind: "group" };
    }
    if (head === "hints") return { kind: "hints" };
    if (head === "layout") return { kind: "layout" };
    if (head === "planner") return { kind: "planner" };
    if (head === "llm" || head === "summarizerLlm" || head === "routerLlm" || head === "candidateLlms") {
      return { kind: "llm", id: head };
    }
    return { kind: "agent" };
  };
  const report: Report = (severity, code, path, message, fix) =>
    issues.push({
      severity,
      code,
      path: formatJsonPath(path),
      message,
      target: targetOf(path),
      ...(fix ? { fix } : {}),
    });

  const tools = new Map<string, ToolSpec>();
  spec.tools.forEach((tool, i) => {
    const at: Path = ["tools", toolIndex(i)];
    if (RESERVED_TOOL_NAMES.has(tool.name)) {
      report("error", "reserved_tool_name", [...at, "name"], getReservedNameMessage(tool.name));
    }
    if (tools.has(tool.name)) {
      report(
        "error",
        "duplicate_tool_name",
        [...at, "name"],
        `Another tool is already named "${tool.name}".`,
      );
    } else tools.set(tool.name, tool);
    checkToolSpec(tool, at, report);
  });
  checkLlmConfigs(spec, report, toolIndex);
  checkApprovalPolicies(spec, toolIndex, report);
  if (spec.answerSchema !== undefined) checkToolSchema(spec.answerSchema, ["answerSchema"], "answer", report);
  checkGuards(spec, report);

  const requireTool = (name: string, path: Path, role: string): boolean => {
    if (tools.has(name)) return true;
    report(
      "error",
      "unknown_tool",
      path,
      `${role} "${name}" is not a tool of this agent: add the tool or fix the name.`,
    );
    return false;
  };

  checkEdges(spec, tools, { report, requireTool, edgeIndex });
  checkGroups(spec, tools, { report, requireTool, groupIndex });
  checkHints(spec, { report, requireTool });
  checkHintConflicts(spec, { report, groupIndex });
  return issues;
}

interface CheckContext {
  report: Report;
  requireTool: (name: string, path: Path, role: string) => boolean;
}

function checkEdges(
  spec: AgentSpec,
  tools: Map<string, ToolSpec>,
  { report, requireTool, edgeIndex }: CheckContext & { edgeIndex: (i: number) => number },
): void {
  const ids = new Set<string>();
  const seen = new Set<string>();
  const orderGraph = new Map<string, string[]>();
  spec.edges.forEach((edge, i) => {
    const at: Path = ["edges", edgeIndex(i)];
    if (ids.has(edge.id))
      report("error", "duplicate_id", [...at, "id"], `Another edge already has id "${edge.id}".`);
    ids.add(edge.id);
    const sourceOk = requireTool(edge.source, [...at, "source"], "Edge source");
    const targetOk = requireTool(edge.target, [...at, "target"], "Edge target");
    if (edge.source === edge.target) {
      report("error", "self_edge", at, `An edge cannot connect "${edge.source}" to itself.`);
      return;
    }
    const key = `${edge.kind}:${edge.source}->${edge.target}`;
    if (seen.has(key)) report("warning", "duplicate_edge", at, `The same ${edge.kind} edge is drawn twice.`);
    seen.add(key);
    if (edge.kind === "order") {
      orderGraph.set(edge.source, [...(orderGraph.get(edge.source) ?? []), edge.target]);
      return;
    }
    const target = tools.get(edge.target);
    const source = tools.get(edge.source);
    if (!sourceOk || !targetOk || !target || !source) return;
    checkAutoSeqFit({ edge, source, target, at, report });
    if (!target.autoSeq) {
      report(
        "warning",
        "auto_seq_edge_into_non_auto_seq_tool",
        at,
        `The auto-seq edge has no effect until "autoSeq" is on for ${target.name}.`,
      );
    }
    if (spec.planner.autoSeq.readOnlyOnly && !READ_ONLY_SIDE_EFFECTS.has(target.sideEffects)) {
      report(
        "warning",
        "auto_seq_into_side_effect",
        at,
        `${target.name} is a ${target.sideEffects} tool and auto-seq is read-only-only: it will never follow automatically. Turn off "readOnlyOnly" or use an order edge.`,
      );
    }
  });
  if (!spec.planner.autoSeq.enabled && spec.edges.some((edge) => edge.kind === "auto_seq")) {
    report(
      "warning",
      "auto_seq_disabled",
      ["planner", "autoSeq", "enabled"],
      `Auto-seq edges are drawn but auto-seq is off for this agent: turn on planner.autoSeq.enabled (and "execute" to skip the LLM call).`,
    );
  }
  const cycle = findCycle(orderGraph);
  if (cycle) {
    report("warning", "ordering_cycle", ["edges"], `Order edges form a cycle: ${cycle.join(" → ")}.`);
  }
}

function findCycle(graph: Map<string, string[]>): string[] | undefined {
  const state = new Map<string, "visiting" | "done">();
  const stack: string[] = [];
  const visit = (node: string): string[] | undefined => {
    if (state.get(node) === "done") return undefined;
    if (state.get(node) === "visiting") return [...stack.slice(stack.indexOf(node)), node];
    state.set(node, "visiting");
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      const found = visit(next);
      if (found) return found;
    }
    stack.pop();
    state.set(node, "done");
    return undefined;
  };
  for (const node of graph.keys()) {
    const found = visit(node);
    if (found) return found;
  }
  return undefined;
}

function checkGroups(
  spec: AgentSpec,
  tools: Map<string, ToolSpec>,
  { report, requireTool, groupIndex }: CheckContext & { groupIndex: (i: number) => number },
): void {
  const ids = new Set<string>();
  const memberOf = new Map<string, string>();
  const disallowed = new Set(spec.hints.disallow_nodes);
  spec.groups.forEach((group, i) => {
    const at: Path = ["groups", groupIndex(i)];
    if (ids.has(group.id))
      report("error", "duplicate_id", [...at, "id"], `Another group already has id "${group.id}".`);
    ids.add(group.id);
    if (group.members.length < 2) {
      report(
        "warning",
        "group_too_small",
        [...at, "members"],
        `A parallel group needs at least two tools to run in parallel.`,
      );
    }
    group.members.forEach((member, m) => {
      const memberPath: Path = [...at, "members", m];
      if (!requireTool(member, memberPath, "Group member")) return;
      const other = memberOf.get(member);
      if (other !== undefined && other !== group.id) {
        report(
          "error",
          "tool_in_multiple_groups",
          memberPath,
          `${member} is already in parallel group "${other}": a tool belongs to one group.`,
        );
      }
      memberOf.set(member, group.id);
      if (disallowed.has(member)) {
        report(
          "warning",
          "disallowed_in_parallel_group",
          memberPath,
          `${member} is disallowed and will never run in this group.`,
        );
      }
    });
    if (!group.join) return;
    const joinPath: Path = [...at, "join"];
    const joinTool = requireTool(group.join.tool, [...joinPath, "tool"], "Join tool")
      ? tools.get(group.join.tool)
      : undefined;
    if (joinTool !== undefined && group.members.includes(joinTool.name)) {
      report(
        "warning",
        "join_tool_is_member",
        [...joinPath, "tool"],
        `The join tool ${group.join.tool} is also a branch of the group.`,
      );
    }
    checkGroupJoin({ join: group.join, tool: joinTool, at: joinPath, report });
  });
}

function checkHints(spec: AgentSpec, { requireTool }: CheckContext): void {
  const { hints } = spec;
  const lists = ["ordering_hints", "sequential_only", "disallow_nodes", "prefer_nodes"] as const;
  for (const key of lists) {
    hints[key].forEach((name, i) => requireTool(name, ["hints", key, i], `Hint ${key}`));
  }
  hints.parallel_groups.forEach((group, g) =>
    group.forEach((name, i) => requireTool(name, ["hints", "parallel_groups", g, i], "Hint parallel_groups")),
  );
}
