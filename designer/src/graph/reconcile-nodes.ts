import type { FlowEdge, FlowNode } from "./flow-types.js";
import { isSameIssueSummary, type IssueSummary } from "./get-issue-index.js";

/** Node and edge data are equal when their fields are; issue summaries compare by content. */
function isSameData(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => {
    const left = a[key];
    const right = b[key];
    if (key === "issues")
      return isSameIssueSummary(
        (left ?? undefined) as IssueSummary | undefined,
        (right ?? undefined) as IssueSummary | undefined,
      );
    if (Array.isArray(left) && Array.isArray(right))
      return left.length === right.length && left.every((item, index) => Object.is(item, right[index]));
    return Object.is(left, right);
  });
}

function isSameNode(previous: FlowNode, next: FlowNode): boolean {
  return (
    previous.type === next.type &&
    previous.position.x === next.position.x &&
    previous.position.y === next.position.y &&
    previous.parentId === next.parentId &&
    Boolean(previous.selected) === Boolean(next.selected) &&
    previous.width === next.width &&
    previous.height === next.height &&
    isSameData(previous.data, next.data)
  );
}

/**
 * Merges freshly derived nodes into the canvas's current ones: unchanged nodes keep their object (so
 * memoized node components do not re-render), measured sizes carry over (so nothing is re-measured), and
 * a node being dragged or resized keeps its live position and size until the gesture ends.
 */
export function reconcileNodes(previous: readonly FlowNode[], next: readonly FlowNode[]): FlowNode[] {
  const byId = new Map(previous.map((node) => [node.id, node]));
  let changed = previous.length !== next.length;
  const result = next.map((node, index) => {
    const old = byId.get(node.id);
    if (!old) {
      changed = true;
      return node;
    }
    let merged: FlowNode = node;
    if (old.dragging || old.resizing) {
      merged = {
        ...node,
        position: old.position,
        dragging: old.dragging,
        resizing: old.resizing,
      } as FlowNode;
      if (old.resizing) merged = { ...merged, width: old.width, height: old.height } as FlowNode;
    }
    if (isSameNode(old, merged)) {
      if (previous[index] !== old) changed = true;
      return old;
    }
    changed = true;
    return old.measured ? ({ ...merged, measured: old.measured } as FlowNode) : merged;
  });
  return changed ? result : (previous as FlowNode[]);
}

/** Keeps the previous edge objects that did not change, so React Flow does not re-render their edges. */
export function reconcileEdges(previous: readonly FlowEdge[], next: readonly FlowEdge[]): FlowEdge[] {
  const byId = new Map(previous.map((edge) => [edge.id, edge]));
  let changed = previous.length !== next.length;
  const result = next.map((edge, index) => {
    const old = byId.get(edge.id);
    const same =
      old !== undefined &&
      old.type === edge.type &&
      old.source === edge.source &&
      old.target === edge.target &&
      Boolean(old.selected) === Boolean(edge.selected) &&
      isSameData(old.data ?? {}, edge.data ?? {});
    if (!same || previous[index] !== old) changed = true;
    return same ? old : edge;
  });
  return changed ? result : (previous as FlowEdge[]);
}
