import { describe, expect, it } from "vitest";
import { makeSpec, makeTool } from "../testing/make-spec.js";
import { makeLargeSpec } from "../testing/make-large-spec.js";
import { getNewGroupPosition, NEW_GROUP_GAP } from "./get-new-group-position.js";
import { isRectInside } from "./get-new-tool-position.js";
import { doRectsIntersect, getInflatedRect, getNodeRects } from "./get-node-rects.js";
import { DEFAULT_GROUP_SIZE, getGroupKey } from "../model/layout-geometry.js";
import type { AgentSpec } from "@waddle/protocol";
import type { Rect } from "../model/geometry.js";

function coversNothing(spec: AgentSpec, frame: Rect): boolean {
  return getNodeRects(spec).every(
    (node) => !doRectsIntersect(getInflatedRect(node.rect, NEW_GROUP_GAP), frame),
  );
}

describe("getNewGroupPosition", () => {
  it("centres the frame on the wanted point when that covers nothing", () => {
    const frame = getNewGroupPosition(makeSpec(), { center: { x: 400, y: 600 } });
    expect(frame).toEqual({ x: 240, y: 470, ...DEFAULT_GROUP_SIZE });
  });

  it("never drops the frame on the tools in the middle of the view, and stays in view", () => {
    // alpha, beta, gamma in a row at y 0: the middle of this view is on beta
    const spec = makeSpec();
    const view = { x: -200, y: -400, width: 1_240, height: 900 };
    const frame = getNewGroupPosition(spec, { center: { x: 420, y: 46 }, view });
    expect(coversNothing(spec, frame)).toBe(true);
    expect(isRectInside(frame, view)).toBe(true);
    // just above or below the row, not far away
    expect(Math.abs(frame.x - 260)).toBeLessThanOrEqual(1);
  });

  it("avoids group frames as well as tools", () => {
    const spec = makeSpec({
      tools: [makeTool("alpha")],
      groups: [{ id: "g", kind: "parallel", name: "G", members: [] }],
      layout: {
        nodes: { alpha: { x: 0, y: 0 }, [getGroupKey("g")]: { x: 300, y: -100, width: 320, height: 260 } },
      },
    });
    const frame = getNewGroupPosition(spec, { center: { x: 460, y: 30 } });
    expect(coversNothing(spec, frame)).toBe(true);
  });

  it("goes outside the view only when the view has no room", () => {
    const spec = makeSpec();
    const view = { x: -20, y: -20, width: 880, height: 140 };
    const frame = getNewGroupPosition(spec, { center: { x: 420, y: 46 }, view });
    expect(coversNothing(spec, frame)).toBe(true);
  });

  it("finds a free spot in a grid of 300 tools", () => {
    const spec = makeLargeSpec(300);
    const frame = getNewGroupPosition(spec, { center: { x: 1_000, y: 800 } });
    expect(coversNothing(spec, frame)).toBe(true);
  });
});
