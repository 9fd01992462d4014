import { describe, expect, it } from "vitest";
import { getChipPosition, getPointAt, SUGGESTION_CHIP_SIZE } from "./get-chip-position.js";
import { getEdgeRoute } from "./get-edge-route.js";
import { doRectsIntersect } from "./get-node-rects.js";
import { TOOL_NODE_SIZE } from "../model/layout-geometry.js";
import type { Rect } from "../model/geometry.js";

function box(x: number, y: number): Rect {
  return { x, y, ...TOOL_NODE_SIZE };
}

function getChipRect(center: { x: number; y: number }): Rect {
  const { width, height } = SUGGESTION_CHIP_SIZE;
  return { x: center.x - width / 2, y: center.y - height / 2, width, height };
}

describe("getChipPosition", () => {
  it("sits in the middle of an edge with room around it", () => {
    const points = [
      { x: 240, y: 46 },
      { x: 640, y: 46 },
    ];
    expect(getChipPosition({ points, obstacles: [box(0, 0), box(640, 0)] })).toEqual({ x: 440, y: 46 });
  });

  it("moves off the nodes between two neighbours too close for it (a 60 px gap)", () => {
    const [source, target] = [box(0, 0), box(300, 0)];
    const route = getEdgeRoute({ source: { x: 240, y: 46 }, target: { x: 300, y: 46 }, obstacles: [] });
    const point = getChipPosition({ points: route.points, obstacles: [source, target] });
    const chip = getChipRect(point);
    expect(doRectsIntersect(chip, source) || doRectsIntersect(chip, target)).toBe(false);
    expect(point.x).toBeCloseTo(270); // still over the gap between them: it labels that edge
  });

  it("never covers a tool the edge passes (the old chip sat 78% along, often on a tool)", () => {
    const tools = [box(0, 0), box(300, 0), box(600, 0), box(900, 0), box(300, 140)];
    const source = { x: 240, y: 46 };
    const target = { x: 900, y: 46 };
    const route = getEdgeRoute({ source, target, obstacles: tools.slice(1, 3) });
    const point = getChipPosition({ points: route.points, obstacles: tools });
    expect(tools.some((tool) => doRectsIntersect(getChipRect(point), tool))).toBe(false);
  });

  it("covers as little as it can when nothing is free", () => {
    const wall = { x: -1_000, y: -1_000, width: 2_000, height: 2_000 };
    const points = [
      { x: 0, y: 0 },
      { x: 100, y: 0 },
    ];
    const point = getChipPosition({ points, obstacles: [wall] });
    expect(Number.isFinite(point.x) && Number.isFinite(point.y)).toBe(true);
  });
});

describe("getPointAt", () => {
  it("walks a polyline by length", () => {
    const points = [
      { x: 0, y: 0 },
      { x: 0, y: 100 },
      { x: 50, y: 100 },
    ];
    expect(getPointAt(points, 50)).toEqual({ x: 0, y: 50 });
    expect(getPointAt(points, 125)).toEqual({ x: 25, y: 100 });
    expect(getPointAt(points, 1_000)).toEqual({ x: 50, y: 100 });
  });
});
