import type { XYPosition } from "../store/spec-change.js";

/**
 * A point along an SVG cubic bezier path of the form `M x,y C x1,y1 x2,y2 x,y` (what React Flow's
 * `getBezierPath` returns), at `t` from 0 (source) to 1 (target). Falls back to the path's last point.
 */
export function getPathPoint(path: string, t: number): XYPosition | null {
  const numbers = (path.match(/-?\d+(?:\.\d+)?(?:e-?\d+)?/gi) ?? []).map(Number);
  if (numbers.length < 8)
    return numbers.length >= 2 ? { x: numbers.at(-2) ?? 0, y: numbers.at(-1) ?? 0 } : null;
  const [x0, y0, x1, y1, x2, y2, x3, y3] = numbers as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const u = 1 - t;
  const a = u * u * u;
  const b = 3 * u * u * t;
  const c = 3 * u * t * t;
  const d = t * t * t;
  return { x: a * x0 + b * x1 + c * x2 + d * x3, y: a * y0 + b * y1 + c * y2 + d * y3 };
}
