import type { AgentSpec, Edge } from "@waddle/protocol";
import { JOIN_EDGE_PREFIX } from "../../graph/flow-types.js";
import type { TransitionProvenance } from "../../model/transition-provenance.js";

const edgeIndexes = new WeakMap<AgentSpec, Map<string, Edge[]>>();

const getPairKey = (source: string, target: string) => `${source}\u0000${target}`;

function getEdgeIndex(spec: AgentSpec): Map<string, Edge[]> {
  let index = edgeIndexes.get(spec);
  if (index === undefined) {
    index = new Map();
    for (const edge of spec.edges) {
      const key = getPairKey(edge.source, edge.target);
      const list = index.get(key);
      if (list === undefined) index.set(key, [edge]);
      else list.push(edge);
    }
    edgeIndexes.set(spec, index);
  }
  return index;
}

/**
 * The spec edge a transition follows, or null (drawn as a temporary arc): an auto-seq transition takes an
 * `auto_seq` edge source→target; any other takes an edge source→target, an `auto_seq` one first. A join
 * with no such edge takes the canvas's join edge of its parallel group (`join:<groupId>`).
 */
export function getTransitionEdge(
  spec: AgentSpec | undefined,
  transition: { from: string | null; to: string; provenance: TransitionProvenance; groupId?: string | null },
): string | null {
  if (spec === undefined) return null;
  const { from, to, provenance } = transition;
  if (from !== null) {
    const edges = getEdgeIndex(spec).get(getPairKey(from, to));
    if (edges !== undefined) {
      const autoSeq = edges.find((edge) => edge.kind === "auto_seq");
      if (provenance === "auto_seq") {
        if (autoSeq !== undefined) return autoSeq.id;
      } else {
        const edge = autoSeq ?? edges[0];
        if (edge !== undefined) return edge.id;
      }
    }
  }
  if (provenance === "join" && transition.groupId) {
    const group = spec.groups.find((candidate) => candidate.id === transition.groupId);
    if (group?.join?.tool === to) return `${JOIN_EDGE_PREFIX}${group.id}`;
  }
  return null;
}
