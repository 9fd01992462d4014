import { useStore, type ReactFlowState } from "@xyflow/react";

/** True when every node lies inside the visible canvas (or there is nothing to show yet). */
function selectIsAllInView(state: ReactFlowState): boolean {
  const [x, y, zoom] = state.transform;
  if (state.width === 0 || state.height === 0) return true;
  for (const node of state.nodeLookup.values()) {
    const { x: left, y: top } = node.internals.positionAbsolute;
    const width = (node.measured.width ?? 0) * zoom;
    const height = (node.measured.height ?? 0) * zoom;
    const screenX = left * zoom + x;
    const screenY = top * zoom + y;
    if (screenX < 0 || screenY < 0 || screenX + width > state.width || screenY + height > state.height)
      return false;
  }
  return true;
}

/**
 * Whether the whole agent is in view. The minimap shows only when it is not: over an agent that fits, it
 * only covers the bottom-right tool (the last of a wrapped layout's rows).
 */
export function useIsAllInView(): boolean {
  return useStore(selectIsAllInView);
}
