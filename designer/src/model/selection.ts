import type { AgentSpec } from "@waddle/protocol";
import { getGroupKey } from "./layout-geometry.js";

/** What is selected on the canvas: node ids (tool names, `group:<id>`) and edge ids. Not a document change. */
export interface Selection {
  nodes: readonly string[];
  edges: readonly string[];
}

export const EMPTY_SELECTION: Selection = { nodes: [], edges: [] };

/**
 * Drops selected ids that no longer exist (after a delete or an undo) and follows a rename. Returns the
 * same object when nothing changed, so selectors do not re-render.
 */
export function getPrunedSelection(
  spec: AgentSpec,
  selection: Selection,
  renamed?: { from: string; to: string },
): Selection {
  const nodeIds = new Set([
    ...spec.tools.map((tool) => tool.name),
    ...spec.groups.map((group) => getGroupKey(group.id)),
  ]);
  const edgeIds = new Set(spec.edges.map((edge) => edge.id));
  const nodes = selection.nodes
    .map((id) => (renamed && id === renamed.from ? renamed.to : id))
    .filter((id) => nodeIds.has(id));
  const edges = selection.edges.filter((id) => edgeIds.has(id));
  const same =
    nodes.length === selection.nodes.length &&
    nodes.every((id, index) => id === selection.nodes[index]) &&
    edges.length === selection.edges.length;
  return same ? selection : { nodes, edges };
}

/** True when two selections hold the same ids in the same order. */
export function isSameSelection(a: Selection, b: Selection): boolean {
  return (
    a.nodes.length === b.nodes.length &&
    a.edges.length === b.edges.length &&
    a.nodes.every((id, index) => id === b.nodes[index]) &&
    a.edges.every((id, index) => id === b.edges[index])
  );
}
