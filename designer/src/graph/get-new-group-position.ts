import type { AgentSpec } from "@waddle/protocol";
import { isRectInside } from "./get-new-tool-position.js";
import { doRectsIntersect, getInflatedRect, getNodeRects } from "./get-node-rects.js";
import { DEFAULT_GROUP_SIZE } from "../model/layout-geometry.js";
import type { Rect, XYPosition } from "../model/geometry.js";

/** Room kept between a new group frame and the nodes around it. */
export const NEW_GROUP_GAP = 40;
/** Nodes nearest the wanted spot whose sides combine into corner spots (the rest give side spots only). */
const NEAREST = 24;

/**
 * Where a new, empty group frame goes: centred on `center` (a drop point, or the middle of the view)
 * when that covers no tool or frame, else the nearest spot that covers none, one inside the view before
 * any outside it. A frame dropped over tools hid them, and looked as if it held them when it did not.
 */
export function getNewGroupPosition(
  spec: AgentSpec,
  options: { center: XYPosition; view?: Rect; size?: { width: number; height: number } },
): Rect {
  const { center, view } = options;
  const size = options.size ?? DEFAULT_GROUP_SIZE;
  const wanted = {
    x: Math.round(center.x - size.width / 2),
    y: Math.round(center.y - size.height / 2),
    ...size,
  };
  const obstacles = getNodeRects(spec).map((node) => getInflatedRect(node.rect, NEW_GROUP_GAP));
  const isFree = (rect: Rect) => !obstacles.some((obstacle) => doRectsIntersect(rect, obstacle));
  if (isFree(wanted)) return wanted;
  const candidates = getCandidates({ wanted, obstacles }).sort(
    (a, b) => getCost(a, { wanted, view }) - getCost(b, { wanted, view }),
  );
  const free = candidates.find(isFree);
  if (free) return free;
  // cannot happen (right of every node is free), but a frame must go somewhere
  const right = Math.max(...obstacles.map((rect) => rect.x + rect.width));
  return { ...wanted, x: Math.round(right) };
}

/**
 * Spots beside each node (left, right, above, below the wanted spot's line) and, for the nodes nearest
 * it, the corners their sides make together: enough to find a gap between nodes, not only past them.
 */
function getCandidates(options: { wanted: Rect; obstacles: readonly Rect[] }): Rect[] {
  const { wanted, obstacles } = options;
  const xs = (rect: Rect) => [rect.x - wanted.width, rect.x + rect.width];
  const ys = (rect: Rect) => [rect.y - wanted.height, rect.y + rect.height];
  const candidates: Rect[] = [];
  for (const rect of obstacles) {
    for (const x of xs(rect)) candidates.push({ ...wanted, x });
    for (const y of ys(rect)) candidates.push({ ...wanted, y });
  }
  const nearest = [...obstacles]
    .sort((a, b) => getDistance(a, wanted) - getDistance(b, wanted))
    .slice(0, NEAREST);
  const nearXs = [wanted.x, ...nearest.flatMap(xs)];
  const nearYs = [wanted.y, ...nearest.flatMap(ys)];
  for (const x of nearXs) for (const y of nearYs) candidates.push({ ...wanted, x, y });
  return candidates.map((rect) => ({ ...rect, x: Math.round(rect.x), y: Math.round(rect.y) }));
}

/** How far a spot is from the wanted one; any spot in view comes before every spot outside it. */
function getCost(rect: Rect, options: { wanted: Rect; view: Rect | undefined }): number {
  const outside = options.view !== undefined && !isRectInside(rect, options.view) ? 1e9 : 0;
  return outside + Math.hypot(rect.x - options.wanted.x, rect.y - options.wanted.y);
}

function getDistance(a: Rect, b: Rect): number {
  return Math.hypot(a.x + a.width / 2 - (b.x + b.width / 2), a.y + a.height / 2 - (b.y + b.height / 2));
}
