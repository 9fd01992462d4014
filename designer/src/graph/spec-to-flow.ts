import type { AgentSpec } from "@waddle/protocol";
import type { Selection } from "../model/selection.js";
import {
  JOIN_EDGE_PREFIX,
  SUGGESTED_EDGE_PREFIX,
  type FlowEdge,
  type FlowNode,
  type GroupFlowNode,
  type ToolFlowNode,
} from "./flow-types.js";
import { EMPTY_ISSUE_INDEX, type IssueIndex } from "./get-issue-index.js";
import { DEFAULT_GROUP_SIZE, getGroupKey, getStoredPosition } from "../model/layout-geometry.js";
import type { SuggestedEdge } from "./suggest-auto-seq-edges.js";

export interface SpecToFlowOptions {
  issues?: IssueIndex;
  selection?: Selection;
  suggestions?: readonly SuggestedEdge[];
}

/**
 * The canvas view of a spec: group frames (parents first, as React Flow requires), tool nodes (members
 * positioned relative to their frame), the spec's edges, join edges from frames to join tools, and
 * suggested auto-seq edges.
 */
export function specToFlow(
  spec: AgentSpec,
  options: SpecToFlowOptions = {},
): { nodes: FlowNode[]; edges: FlowEdge[] } {
  const issues = options.issues ?? EMPTY_ISSUE_INDEX;
  const selectedNodes = new Set(options.selection?.nodes ?? []);
  const selectedEdges = new Set(options.selection?.edges ?? []);
  const groupOf = new Map<string, string>();
  const joinOf = new Map<string, string>();
  for (const group of spec.groups) {
    for (const member of group.members) if (!groupOf.has(member)) groupOf.set(member, group.id);
    if (group.join) joinOf.set(group.join.tool, group.name);
  }
  const groupNodes: GroupFlowNode[] = spec.groups.map((group) => {
    const key = getGroupKey(group.id);
    const stored = getStoredPosition(spec, key);
    return {
      id: key,
      type: "group",
      position: { x: stored.x, y: stored.y },
      width: stored.width ?? DEFAULT_GROUP_SIZE.width,
      height: stored.height ?? DEFAULT_GROUP_SIZE.height,
      selected: selectedNodes.has(key),
      data: { group, issues: issues.groups.get(group.id) ?? null },
    };
  });
  const hints = spec.hints;
  const toolNodes: ToolFlowNode[] = spec.tools.map((tool) => {
    const stored = getStoredPosition(spec, tool.name);
    const groupId = groupOf.get(tool.name);
    const node: ToolFlowNode = {
      id: tool.name,
      type: "tool",
      position: { x: stored.x, y: stored.y },
      selected: selectedNodes.has(tool.name),
      data: {
        tool,
        preferred: hints.prefer_nodes.includes(tool.name),
        disallowed: hints.disallow_nodes.includes(tool.name),
        sequentialOnly: hints.sequential_only.includes(tool.name),
        joinOf: joinOf.get(tool.name) ?? null,
        issues: issues.tools.get(tool.name) ?? null,
      },
    };
    if (groupId !== undefined) node.parentId = getGroupKey(groupId);
    return node;
  });
  const toolNames = new Set(spec.tools.map((tool) => tool.name));
  const edges: FlowEdge[] = spec.edges
    .filter((edge) => toolNames.has(edge.source) && toolNames.has(edge.target))
    .map((edge) => ({
      id: edge.id,
      type: "spec",
      source: edge.source,
      target: edge.target,
      selected: selectedEdges.has(edge.id),
      data: { kind: edge.kind, issues: issues.edges.get(edge.id) ?? null },
    }));
  for (const group of spec.groups) {
    if (!group.join || !toolNames.has(group.join.tool)) continue;
    edges.push({
      id: `${JOIN_EDGE_PREFIX}${group.id}`,
      type: "join",
      source: getGroupKey(group.id),
      target: group.join.tool,
      selectable: false,
      focusable: false,
      deletable: false,
      data: { groupName: group.name },
    });
  }
  for (const suggestion of options.suggestions ?? []) {
    // suggestions may come from a slightly older spec (they are computed deferred)
    if (!toolNames.has(suggestion.source) || !toolNames.has(suggestion.target)) continue;
    edges.push({
      id: `${SUGGESTED_EDGE_PREFIX}${suggestion.source}->${suggestion.target}`,
      type: "suggested",
      source: suggestion.source,
      target: suggestion.target,
      selectable: false,
      focusable: false,
      deletable: false,
      data: { matched: suggestion.matched },
    });
  }
  return { nodes: [...groupNodes, ...toolNodes], edges };
}
