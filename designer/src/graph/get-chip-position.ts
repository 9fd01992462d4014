import { doRectsIntersect, getInflatedRect } from "./get-node-rects.js";
import type { Rect, XYPosition } from "../model/geometry.js";

/** The "+ auto-seq" chip's size in flow pixels (10.5 px text, padded), rounded up. */
export const SUGGESTION_CHIP_SIZE = { width: 80, height: 22 } as const;

/** Where along the edge a chip may sit, in order of preference: the middle first, then outwards. */
const FRACTIONS = [0.5, 0.42, 0.58, 0.34, 0.66, 0.26, 0.74, 0.18, 0.82];
const GAP = 6;

/**
 * The centre of a chip that labels an edge: on the edge where the chip covers no node, else as near as
 * possible above or below the nodes it would cover, so that it never hides a tool's name or description.
 * With no free place at all, the place that covers least. `points` is the edge as a polyline.
 */
export function getChipPosition(options: {
  points: readonly XYPosition[];
  obstacles: readonly Rect[];
  size?: { width: number; height: number };
}): XYPosition {
  const { points, obstacles } = options;
  const size = options.size ?? SUGGESTION_CHIP_SIZE;
  const length = getLength(points);
  let best: { point: XYPosition; cost: number; covered: number } | null = null;
  for (const fraction of FRACTIONS) {
    const base = getPointAt(points, fraction * length);
    const drift = Math.abs(fraction - 0.5) * length;
    const blocking = obstacles.filter((rect) => doRectsIntersect(getChipRect(base, size), rect));
    const candidates: XYPosition[] = [
      base,
      ...blocking.flatMap((rect) => [
        { x: base.x, y: rect.y - size.height / 2 - GAP },
        { x: base.x, y: rect.y + rect.height + size.height / 2 + GAP },
      ]),
    ];
    for (const point of candidates) {
      const rect = getInflatedRect(getChipRect(point, size), GAP / 2);
      const covered = obstacles.reduce((sum, obstacle) => sum + getOverlapArea(rect, obstacle), 0);
      // a step off the edge costs more than a step along it: the chip should sit on its edge
      const cost = drift + 2 * Math.abs(point.y - base.y);
      if (best === null || covered < best.covered || (covered === best.covered && cost < best.cost)) {
        best = { point, cost, covered };
      }
    }
  }
  return best?.point ?? points[0] ?? { x: 0, y: 0 };
}

function getChipRect(center: XYPosition, size: { width: number; height: number }): Rect {
  return { x: center.x - size.width / 2, y: center.y - size.height / 2, ...size };
}

function getOverlapArea(a: Rect, b: Rect): number {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return width > 0 && height > 0 ? width * height : 0;
}

function getLength(points: readonly XYPosition[]): number {
  let length = 0;
  for (let index = 1; index < points.length; index += 1) {
    const from = points[index - 1];
    const to = points[index];
    if (from && to) length += Math.hypot(to.x - from.x, to.y - from.y);
  }
  return length;
}

/** The point `distance` along a polyline from its start (its end past the end). */
export function getPointAt(points: readonly XYPosition[], distance: number): XYPosition {
  let left = distance;
  for (let index = 1; index < points.length; index += 1) {
    const from = points[index - 1];
    const to = points[index];
    if (!from || !to) continue;
    const step = Math.hypot(to.x - from.x, to.y - from.y);
    if (step > 0 && left <= step) {
      return { x: from.x + ((to.x - from.x) * left) / step, y: from.y + ((to.y - from.y) * left) / step };
    }
    left -= step;
  }
  return points.at(-1) ?? { x: 0, y: 0 };
}
