import { describe, expect, it } from "vitest";
import { makeSpec, makeTool } from "../testing/make-spec.js";
import { getNewToolPosition, getToolRect, isRectInside, NEW_TOOL_GAP } from "./get-new-tool-position.js";
import { getGroupKey, TOOL_NODE_SIZE } from "../model/layout-geometry.js";

const step = TOOL_NODE_SIZE.width + NEW_TOOL_GAP.x;

describe("getNewToolPosition", () => {
  it("puts a new tool right of the right-most tool, on its row", () => {
    // alpha, beta, gamma at x 0, 300, 600 on one row
    expect(getNewToolPosition(makeSpec())).toEqual({ x: 600 + step, y: 0 });
  });

  it("adds tool after tool left to right, never below one another", () => {
    let spec = makeSpec({ tools: [], layout: { nodes: {} } });
    const view = { x: -500, y: -300, width: 1000, height: 600 };
    const placed = [];
    for (const name of ["search", "fetch", "summarize"]) {
      const position = getNewToolPosition(spec, { view });
      placed.push(position);
      spec = { ...spec, tools: [...spec.tools, makeTool(name)] };
      spec = { ...spec, layout: { ...spec.layout, nodes: { ...spec.layout.nodes, [name]: position } } };
    }
    // the first in the middle of the view, the others to its right on the same row
    expect(placed).toEqual([
      { x: -120, y: -46 },
      { x: -120 + step, y: -46 },
      { x: -120 + 2 * step, y: -46 },
    ]);
  });

  it("takes the right-most node of the view, not of the whole canvas", () => {
    const spec = makeSpec({
      layout: { nodes: { alpha: { x: 0, y: 0 }, beta: { x: 300, y: 400 }, gamma: { x: 3_000, y: 0 } } },
    });
    const view = { x: -100, y: -100, width: 800, height: 700 };
    expect(getNewToolPosition(spec, { view })).toEqual({ x: 300 + step, y: 400 });
  });

  it("steps right past tools and group frames in the way (a frame would swallow the tool)", () => {
    const spec = makeSpec({
      groups: [{ id: "g", kind: "parallel", name: "G", members: [] }],
      layout: {
        nodes: {
          alpha: { x: 0, y: 0 },
          beta: { x: 0, y: 600 },
          gamma: { x: 400, y: 10 },
          [getGroupKey("g")]: { x: 700, y: -40, width: 300, height: 200 },
        },
      },
    });
    // in view: alpha only; gamma and the frame beyond the view's edge sit on alpha's row
    const view = { x: -50, y: -50, width: 380, height: 500 };
    expect(getNewToolPosition(spec, { view })).toEqual({ x: 1_000 + NEW_TOOL_GAP.x, y: 0 });
  });

  it("aligns with a group's members when the frame is the right-most node", () => {
    const spec = makeSpec({
      tools: [makeTool("alpha")],
      groups: [{ id: "g", kind: "parallel", name: "G", members: [] }],
      layout: {
        nodes: { alpha: { x: 0, y: 0 }, [getGroupKey("g")]: { x: 300, y: -48, width: 320, height: 200 } },
      },
    });
    expect(getNewToolPosition(spec)).toEqual({ x: 620 + NEW_TOOL_GAP.x, y: 0 });
  });

  it("uses the centre of an empty view, and the origin without a view", () => {
    const spec = makeSpec({ tools: [], layout: { nodes: {} } });
    expect(getNewToolPosition(spec, { view: { x: 1_000, y: 0, width: 400, height: 200 } })).toEqual({
      x: 1_080,
      y: 54,
    });
    expect(getNewToolPosition(spec)).toEqual({ x: 0, y: 0 });
  });

  it("tells whether a tool's rectangle is wholly in view", () => {
    const view = { x: 0, y: 0, width: 500, height: 200 };
    expect(isRectInside(getToolRect({ x: 10, y: 10 }), view)).toBe(true);
    expect(isRectInside(getToolRect({ x: 300, y: 10 }), view)).toBe(false);
  });
});
