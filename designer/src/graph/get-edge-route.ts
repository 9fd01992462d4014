import type { Rect, XYPosition } from "../model/geometry.js";

/** How an edge is drawn: its SVG path, where its label sits, and a polyline along it (for placing chips). */
export interface EdgeRoute {
  path: string;
  label: XYPosition;
  points: XYPosition[];
  /** "curve": React Flow's bezier, clear of every node; "detour": bent round the nodes in its way. */
  kind: "curve" | "detour";
}

export interface RouteOptions {
  source: XYPosition;
  target: XYPosition;
  obstacles: readonly Rect[];
  /** Room kept between a detour and the nodes it passes, and the run out of a handle before it turns. */
  clearance?: number;
  /** Which lane a detour takes when above and below are as short: kinds of edges keep apart so. */
  prefer?: "above" | "below";
}

/** The default room between a detour and the nodes it passes. */
export const ROUTE_CLEARANCE = 20;
const CORNER_RADIUS = 12;
const CURVATURE = 0.25;
const SAMPLES = 24;
/** How many lanes are weighed by their crossings when none is free (each costs a full count). */
const MAX_BLOCKED_LANES = 24;

/**
 * The path of an edge from a source handle (on a node's right side) to a target handle (on a left side).
 * React Flow's bezier when no node other than its ends lies in its way; else a detour that leaves the
 * source, runs along a free lane above or below the nodes between, and enters the target: an edge from
 * the first to the third tool of a row no longer runs under the second, reading as a chain.
 * `obstacles` are the boxes of the nodes around, its own ends included (a backward bezier loops through
 * them; the route leaves and enters them on the handles' sides, never inside).
 * The rules: `designer/docs/canvas-readability.md`.
 */
export function getEdgeRoute(options: RouteOptions): EdgeRoute {
  const curve = getBezierRoute(options.source, options.target);
  if (!hitsAny(curve.points, options.obstacles)) return curve;
  return getDetourRoute(options) ?? curve;
}

/** React Flow's `getBezierPath` for a right-side source and a left-side target, sampled. */
export function getBezierRoute(source: XYPosition, target: XYPosition): EdgeRoute {
  const offset = getControlOffset(target.x - source.x);
  const c1 = { x: source.x + offset, y: source.y };
  const c2 = { x: target.x - offset, y: target.y };
  const points = Array.from({ length: SAMPLES + 1 }, (_, index) =>
    getCubicPoint([source, c1, c2, target], index / SAMPLES),
  );
  return {
    path: `M${source.x},${source.y} C${c1.x},${c1.y} ${c2.x},${c2.y} ${target.x},${target.y}`,
    label: getCubicPoint([source, c1, c2, target], 0.5),
    points,
    kind: "curve",
  };
}

/** React Flow's control-point offset: half the run forwards, a loop growing with the distance backwards. */
function getControlOffset(distance: number): number {
  return distance >= 0 ? 0.5 * distance : CURVATURE * 25 * Math.sqrt(-distance);
}

function getCubicPoint(points: readonly [XYPosition, XYPosition, XYPosition, XYPosition], t: number) {
  const [p0, p1, p2, p3] = points;
  const u = 1 - t;
  const a = u * u * u;
  const b = 3 * u * u * t;
  const c = 3 * u * t * t;
  const d = t * t * t;
  return { x: a * p0.x + b * p1.x + c * p2.x + d * p3.x, y: a * p0.y + b * p1.y + c * p2.y + d * p3.y };
}

/**
 * Out of the source to the right, along a horizontal lane, into the target from the left. The lane is
 * the one nearest the handles whose whole route misses every node; with none free, the one that crosses
 * fewest. Null when there is nothing to choose from.
 */
function getDetourRoute(options: RouteOptions): EdgeRoute | null {
  const { source, target, obstacles, clearance = ROUTE_CLEARANCE, prefer = "above" } = options;
  const exitX = source.x + clearance;
  const entryX = target.x - clearance;
  const left = Math.min(exitX, entryX);
  const right = Math.max(exitX, entryX);
  const between = obstacles.filter((rect) => rect.x < right && rect.x + rect.width > left);
  const lanes = new Set<number>([source.y, target.y]);
  for (const rect of between) {
    lanes.add(rect.y - clearance);
    lanes.add(rect.y + rect.height + clearance);
  }
  const side = prefer === "above" ? 1 : -1;
  // nearest lanes first (ties on the preferred side): the first whose route is free wins
  const candidates = [...lanes]
    .map((lane) => ({ lane, length: Math.abs(lane - source.y) + Math.abs(lane - target.y) }))
    .sort((a, b) => a.length - b.length || side * (a.lane - b.lane));
  let best: { points: XYPosition[]; lane: number; hits: number } | null = null;
  for (const { lane } of candidates) {
    const points = getLanePoints({ source, target, exitX, entryX, lane });
    if (!hitsAny(points, between)) {
      best = { points, lane, hits: 0 };
      break;
    }
  }
  // boxed in on every side (rare): the nearest of the lanes that cross fewest
  for (const { lane } of best === null ? candidates.slice(0, MAX_BLOCKED_LANES) : []) {
    const points = getLanePoints({ source, target, exitX, entryX, lane });
    const hits = countHits(points, between);
    if (best === null || hits < best.hits) best = { points, lane, hits };
  }
  if (best === null) return null;
  return {
    path: getRoundedPath(best.points, CORNER_RADIUS),
    label: { x: (exitX + entryX) / 2, y: best.lane },
    points: best.points,
    kind: "detour",
  };
}

function getLanePoints(options: {
  source: XYPosition;
  target: XYPosition;
  exitX: number;
  entryX: number;
  lane: number;
}): XYPosition[] {
  const { source, target, exitX, entryX, lane } = options;
  const points = [
    source,
    { x: exitX, y: source.y },
    { x: exitX, y: lane },
    { x: entryX, y: lane },
    { x: entryX, y: target.y },
    target,
  ];
  // drop corners that turn nowhere (a lane level with a handle)
  return points.filter((point, index) => {
    const previous = points[index - 1];
    const next = points[index + 1];
    if (!previous || !next) return true;
    const straight =
      (previous.x === point.x && point.x === next.x) || (previous.y === point.y && point.y === next.y);
    return !straight;
  });
}

/** An SVG path through a polyline's points, its corners rounded (as React Flow's smooth-step edges). */
export function getRoundedPath(points: readonly XYPosition[], radius: number): string {
  const [first, ...rest] = points;
  if (!first) return "";
  let path = `M${first.x},${first.y}`;
  rest.forEach((point, index) => {
    const previous = points[index] ?? point;
    const next = rest[index + 1];
    if (!next) {
      path += ` L${point.x},${point.y}`;
      return;
    }
    const bend = Math.min(radius, getDistance(previous, point) / 2, getDistance(point, next) / 2);
    const before = getTowards(point, previous, bend);
    const after = getTowards(point, next, bend);
    path += ` L${before.x},${before.y} Q${point.x},${point.y} ${after.x},${after.y}`;
  });
  return path;
}

function getDistance(a: XYPosition, b: XYPosition): number {
  return Math.hypot(b.x - a.x, b.y - a.y);
}

/** The point `distance` from `from` towards `to`. */
function getTowards(from: XYPosition, to: XYPosition, distance: number): XYPosition {
  const length = getDistance(from, to);
  if (length === 0) return from;
  return {
    x: from.x + ((to.x - from.x) * distance) / length,
    y: from.y + ((to.y - from.y) * distance) / length,
  };
}

/** True when a polyline passes through any of the boxes. */
export function hitsAny(points: readonly XYPosition[], rects: readonly Rect[]): boolean {
  for (const rect of rects) {
    for (let index = 1; index < points.length; index += 1) {
      const from = points[index - 1];
      const to = points[index];
      if (from && to && doesSegmentCrossRect(from, to, rect)) return true;
    }
  }
  return false;
}

/** How many of the boxes a polyline passes through. */
export function countHits(points: readonly XYPosition[], rects: readonly Rect[]): number {
  let hits = 0;
  for (const rect of rects) {
    for (let index = 1; index < points.length; index += 1) {
      const from = points[index - 1];
      const to = points[index];
      if (from && to && doesSegmentCrossRect(from, to, rect)) {
        hits += 1;
        break;
      }
    }
  }
  return hits;
}

/** Liang–Barsky: true when the segment from `a` to `b` passes through the inside of the box. */
export function doesSegmentCrossRect(a: XYPosition, b: XYPosition, rect: Rect): boolean {
  // most segments are far from most boxes: their bounding boxes do not even meet
  if (Math.max(a.x, b.x) <= rect.x || Math.min(a.x, b.x) >= rect.x + rect.width) return false;
  if (Math.max(a.y, b.y) <= rect.y || Math.min(a.y, b.y) >= rect.y + rect.height) return false;
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  let enter = 0;
  let leave = 1;
  const edges: [number, number][] = [
    [-dx, a.x - rect.x],
    [dx, rect.x + rect.width - a.x],
    [-dy, a.y - rect.y],
    [dy, rect.y + rect.height - a.y],
  ];
  for (const [p, q] of edges) {
    if (p === 0) {
      if (q <= 0) return false;
      continue;
    }
    const t = q / p;
    if (p < 0) enter = Math.max(enter, t);
    else leave = Math.min(leave, t);
    if (enter >= leave) return false;
  }
  return true;
}
