import type { FlowNode } from "./flow-types.js";

function isShallowEqual(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.is(a[key], b[key]));
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
    isShallowEqual(previous.data, next.data)
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
