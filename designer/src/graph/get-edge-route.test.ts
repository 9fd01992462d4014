import { getBezierPath, Position } from "@xyflow/react";
import { describe, expect, it } from "vitest";
import {
  countHits,
  doesSegmentCrossRect,
  getEdgeRoute,
  getRoundedPath,
  ROUTE_CLEARANCE,
} from "./get-edge-route.js";
import { TOOL_NODE_SIZE } from "../model/layout-geometry.js";
import type { Rect } from "../model/geometry.js";

/** A tool's box at a top-left corner, and its handles (right: source, left: target). */
function tool(x: number, y: number) {
  const rect: Rect = { x, y, ...TOOL_NODE_SIZE };
  const middle = y + TOOL_NODE_SIZE.height / 2;
  return { rect, out: { x: x + TOOL_NODE_SIZE.width, y: middle }, in: { x, y: middle } };
}

describe("getEdgeRoute", () => {
  it("draws React Flow's bezier when nothing lies in the way", () => {
    const [first, second] = [tool(0, 0), tool(300, 40)];
    const obstacles = [first.rect, second.rect, tool(0, 400).rect];
    const route = getEdgeRoute({ source: first.out, target: second.in, obstacles });
    const [path, labelX, labelY] = getBezierPath({
      sourceX: first.out.x,
      sourceY: first.out.y,
      sourcePosition: Position.Right,
      targetX: second.in.x,
      targetY: second.in.y,
      targetPosition: Position.Left,
    });
    expect(route.kind).toBe("curve");
    expect(route.path).toBe(path);
    expect(route.label.x).toBeCloseTo(labelX);
    expect(route.label.y).toBeCloseTo(labelY);
  });

  it("bends an edge from the first to the third tool of a row round the second", () => {
    const [first, second, third] = [tool(0, 0), tool(300, 0), tool(600, 0)];
    const row = [first.rect, second.rect, third.rect];
    const route = getEdgeRoute({ source: first.out, target: third.in, obstacles: row });
    expect(route.kind).toBe("detour");
    expect(countHits(route.points, row)).toBe(0);
    // above the row (the nearer lane, ties go up), its label on the lane between the two
    expect(route.label).toEqual({ x: (first.out.x + third.in.x) / 2, y: -ROUTE_CLEARANCE });
    expect(route.points[0]).toEqual(first.out);
    expect(route.points.at(-1)).toEqual(third.in);
    expect(route.path.startsWith(`M${first.out.x},${first.out.y}`)).toBe(true);
  });

  it("takes the lane below when the one above is taken", () => {
    const [first, second, third] = [tool(0, 0), tool(300, 0), tool(600, 0)];
    const above = tool(300, -100).rect;
    const route = getEdgeRoute({ source: first.out, target: third.in, obstacles: [second.rect, above] });
    expect(countHits(route.points, [second.rect, above])).toBe(0);
    expect(route.label.y).toBe(TOOL_NODE_SIZE.height + ROUTE_CLEARANCE);
  });

  it("passes a stack of tools in the way on its outside", () => {
    const [first, last] = [tool(0, 0), tool(900, 0)];
    const stack = [tool(300, -120).rect, tool(300, 0).rect, tool(600, 0).rect, tool(600, 120).rect];
    const route = getEdgeRoute({ source: first.out, target: last.in, obstacles: stack });
    expect(countHits(route.points, stack)).toBe(0);
  });

  it("routes a backward edge round its own ends and what stands between them", () => {
    const [first, middle, last] = [tool(0, 0), tool(300, 0), tool(600, 0)];
    const row = [first.rect, middle.rect, last.rect];
    const route = getEdgeRoute({ source: last.out, target: first.in, obstacles: row });
    expect(route.kind).toBe("detour");
    expect(countHits(route.points, row)).toBe(0);
    expect(route.points.at(-1)).toEqual(first.in);
  });

  it("keeps kinds of edges apart: a preferred side and a wider clearance", () => {
    const [first, second, third] = [tool(0, 0), tool(300, 0), tool(600, 0)];
    const row = [first.rect, second.rect, third.rect];
    const route = getEdgeRoute({
      source: first.out,
      target: third.in,
      obstacles: row,
      clearance: 36,
      prefer: "below",
    });
    expect(route.label.y).toBe(TOOL_NODE_SIZE.height + 36);
    expect(route.points[1]).toEqual({ x: first.out.x + 36, y: first.out.y });
  });
});

describe("doesSegmentCrossRect", () => {
  const rect = { x: 0, y: 0, width: 100, height: 50 };
  it("is true through the inside, false beside it or along its border", () => {
    expect(doesSegmentCrossRect({ x: -10, y: 25 }, { x: 110, y: 25 }, rect)).toBe(true);
    expect(doesSegmentCrossRect({ x: 50, y: -10 }, { x: 50, y: 10 }, rect)).toBe(true);
    expect(doesSegmentCrossRect({ x: 10, y: 10 }, { x: 20, y: 20 }, rect)).toBe(true);
    expect(doesSegmentCrossRect({ x: -10, y: -5 }, { x: 110, y: -5 }, rect)).toBe(false);
    expect(doesSegmentCrossRect({ x: -10, y: 0 }, { x: 110, y: 0 }, rect)).toBe(false);
    expect(doesSegmentCrossRect({ x: -50, y: 0 }, { x: 0, y: 50 }, rect)).toBe(false);
  });
});

describe("getRoundedPath", () => {
  it("rounds each corner, never by more than half the shorter side", () => {
    const path = getRoundedPath(
      [
        { x: 0, y: 0 },
        { x: 20, y: 0 },
        { x: 20, y: -100 },
        { x: 200, y: -100 },
      ],
      12,
    );
    expect(path).toBe("M0,0 L10,0 Q20,0 20,-10 L20,-88 Q20,-100 32,-100 L200,-100");
  });
});
