import type { AgentSpec } from "@waddle/protocol";
import { doRectsIntersect as intersects, getNodeRects, type NodeRect } from "./get-node-rects.js";
import { GROUP_PADDING, TOOL_NODE_SIZE } from "../model/layout-geometry.js";
import type { Rect, XYPosition } from "../model/geometry.js";

/** Room left between a new tool and its neighbours: edges need space for their arrows. */
export const NEW_TOOL_GAP = { x: 96, y: 48 } as const;

/**
 * Where a tool added without a drop point (palette click, the N shortcut) goes: to the right of the
 * right-most node in view, on its row, at the first spot no tool or group frame covers. Edges drawn from
 * the tools before it then run left to right instead of looping back behind them, as they did when new
 * tools stacked downwards. With nothing in view: the centre of the view (or the origin without one).
 */
export function getNewToolPosition(spec: AgentSpec, options: { view?: Rect } = {}): XYPosition {
  const nodes = getNodeRects(spec);
  const { view } = options;
  const inView = view === undefined ? nodes : nodes.filter((node) => intersects(node.rect, view));
  const anchor = getRightMost(inView);
  let point: XYPosition;
  if (anchor !== undefined) {
    const rowTop = anchor.kind === "group" ? anchor.rect.y + GROUP_PADDING.top : anchor.rect.y;
    point = { x: anchor.rect.x + anchor.rect.width + NEW_TOOL_GAP.x, y: rowTop };
  } else if (view !== undefined) {
    point = {
      x: view.x + view.width / 2 - TOOL_NODE_SIZE.width / 2,
      y: view.y + view.height / 2 - TOOL_NODE_SIZE.height / 2,
    };
  } else point = { x: 0, y: 0 };
  const free = getFreeSpotRightwards(
    point,
    nodes.map((node) => node.rect),
  );
  return { x: Math.round(free.x), y: Math.round(free.y) };
}

/** The rectangle a tool at this top-left corner takes. */
export function getToolRect(point: XYPosition): Rect {
  return { x: point.x, y: point.y, ...TOOL_NODE_SIZE };
}

/** True when `inner` lies wholly inside `outer`. */
export function isRectInside(inner: Rect, outer: Rect): boolean {
  return (
    inner.x >= outer.x &&
    inner.y >= outer.y &&
    inner.x + inner.width <= outer.x + outer.width &&
    inner.y + inner.height <= outer.y + outer.height
  );
}

/** The node whose right edge is furthest right; on a tie the later one (tools are kept in the order added). */
function getRightMost(nodes: readonly NodeRect[]): NodeRect | undefined {
  let best: NodeRect | undefined;
  for (const node of nodes) {
    if (best === undefined || right(node.rect) >= right(best.rect)) best = node;
  }
  return best;
}

/** Moves right past whatever covers the spot (a frame too: a tool dropped there would join the group). */
function getFreeSpotRightwards(start: XYPosition, obstacles: readonly Rect[]): XYPosition {
  const point = { ...start };
  // Each move passes one obstacle for good (x only grows), so this ends within obstacles.length moves.
  for (let moves = 0; moves <= obstacles.length; moves += 1) {
    const spot = withMargin(getToolRect(point));
    const blocking = obstacles.filter((rect) => intersects(spot, rect));
    if (blocking.length === 0) break;
    point.x = Math.max(...blocking.map(right)) + NEW_TOOL_GAP.x;
  }
  return point;
}

/** Half the gap around a spot, so that a new tool never touches its neighbours. */
function withMargin(rect: Rect): Rect {
  const x = NEW_TOOL_GAP.x / 2;
  const y = NEW_TOOL_GAP.y / 2;
  return { x: rect.x - x, y: rect.y - y, width: rect.width + 2 * x, height: rect.height + 2 * y };
}

function right(rect: Rect): number {
  return rect.x + rect.width;
}
