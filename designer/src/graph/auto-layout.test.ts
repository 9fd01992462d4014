import { describe, expect, it } from "vitest";
import { applySpecChange } from "../store/apply-spec-change.js";
import { makeSpec, makeTool } from "../testing/make-spec.js";
import { DEFAULT_LAYOUT_VIEW, getAutoLayoutChange, getElkGraph, loadElk } from "./auto-layout.js";
import { DEFAULT_GROUP_SIZE, getAbsolutePosition, TOOL_NODE_SIZE } from "../model/layout-geometry.js";

const spec = makeSpec({
  tools: ["start", "left", "right", "merge", "finish"].map((name) => makeTool(name)),
  edges: [
    { id: "s-l", kind: "order", source: "start", target: "left" },
    { id: "s-r", kind: "order", source: "start", target: "right" },
    { id: "m-f", kind: "auto_seq", source: "merge", target: "finish" },
  ],
  groups: [
    {
      id: "fan",
      kind: "parallel",
      name: "Fan out",
      members: ["left", "right"],
      join: { tool: "merge", args: {}, inject: {} },
    },
  ],
  layout: { nodes: {} },
});

describe("auto-layout", () => {
  it("builds a compound ELK graph with groups holding their members", () => {
    const graph = getElkGraph(spec);
    expect(graph.children?.map((child) => child.id)).toEqual(["group:fan", "start", "merge", "finish"]);
    expect(graph.children?.[0]?.children?.map((child) => child.id)).toEqual(["left", "right"]);
    expect(graph.edges?.map((edge) => edge.id)).toEqual(["s-l", "s-r", "m-f", "join:fan"]);
  });

  it("lays tools out left to right with members inside their frame", async () => {
    const change = await getAutoLayoutChange(spec, await loadElk(), { view: { width: 3000, height: 800 } });
    expect(change?.type).toBe("moveNodes");
    const laidOut = applySpecChange(spec, change ?? { type: "batch", label: "", changes: [] });
    const x = (name: string) => getAbsolutePosition(laidOut, name).x;
    expect(x("start")).toBeLessThan(x("left"));
    expect(x("left")).toBeLessThan(x("merge"));
    expect(x("merge")).toBeLessThan(x("finish"));
    const frame = laidOut.layout.nodes["group:fan"];
    for (const member of ["left", "right"]) {
      const position = laidOut.layout.nodes[member];
      expect(position?.x).toBeGreaterThanOrEqual(0);
      expect((position?.x ?? 0) + TOOL_NODE_SIZE.width).toBeLessThanOrEqual(frame?.width ?? 0);
      expect((position?.y ?? 0) + TOOL_NODE_SIZE.height).toBeLessThanOrEqual(frame?.height ?? 0);
    }
  });

  it("wraps a long chain into rows that fit the default canvas, each row left to right", async () => {
    const names = Array.from({ length: 7 }, (_, index) => `step_${index}`);
    const chain = makeSpec({
      tools: names.map((name) => makeTool(name)),
      edges: names.slice(1).map((name, index) => ({
        id: `e${index}`,
        kind: "order" as const,
        source: names[index] ?? "",
        target: name,
      })),
      layout: { nodes: {} },
    });
    const change = await getAutoLayoutChange(chain, await loadElk());
    const laidOut = applySpecChange(chain, change ?? { type: "batch", label: "", changes: [] });
    const points = names.map((name) => getAbsolutePosition(laidOut, name));
    const rows = [...new Set(points.map((point) => point.y))];
    expect(rows.length).toBeGreaterThan(1);
    const width =
      Math.max(...points.map((point) => point.x)) +
      TOOL_NODE_SIZE.width -
      Math.min(...points.map((point) => point.x));
    expect(width * 0.8).toBeLessThanOrEqual(DEFAULT_LAYOUT_VIEW.width);
    // in reading order: along a row, then down to the start of the next
    for (let index = 1; index < points.length; index++) {
      const [before, after] = [points[index - 1], points[index]];
      if (!before || !after) continue;
      expect(after.y > before.y || (after.y === before.y && after.x > before.x)).toBe(true);
    }
  });
  it("keeps an empty parallel group at its default size, so it still takes drops", async () => {
    const withEmptyGroup = makeSpec({
      tools: [makeTool("start"), makeTool("finish")],
      edges: [{ id: "s-f", kind: "order", source: "start", target: "finish" }],
      groups: [{ id: "empty", kind: "parallel", name: "Empty", members: [] }],
      layout: { nodes: {} },
    });
    const change = await getAutoLayoutChange(withEmptyGroup, await loadElk(), {
      view: { width: 3000, height: 800 },
    });
    const laidOut = applySpecChange(withEmptyGroup, change ?? { type: "batch", label: "", changes: [] });
    const frame = laidOut.layout.nodes["group:empty"];
    expect(frame).toMatchObject(DEFAULT_GROUP_SIZE);
    // ELK made room for it: no tool sits inside the frame
    for (const name of ["start", "finish"]) {
      const tool = getAbsolutePosition(laidOut, name);
      const apart =
        tool.x + TOOL_NODE_SIZE.width <= (frame?.x ?? 0) ||
        tool.x >= (frame?.x ?? 0) + DEFAULT_GROUP_SIZE.width ||
        tool.y + TOOL_NODE_SIZE.height <= (frame?.y ?? 0) ||
        tool.y >= (frame?.y ?? 0) + DEFAULT_GROUP_SIZE.height;
      expect(apart, name).toBe(true);
    }
  });

  it("never makes a frame smaller than the default group size, whatever ELK answers", async () => {
    const shrinking = {
      layout: async () => ({
        id: "root",
        children: [{ id: "group:empty", x: 5, y: 6, width: 0, height: 0, children: [] }],
      }),
    };
    const change = await getAutoLayoutChange(
      makeSpec({
        tools: [],
        groups: [{ id: "empty", kind: "parallel", name: "Empty", members: [] }],
        layout: { nodes: {} },
      }),
      shrinking,
    );
    expect(change).toMatchObject({ positions: { "group:empty": DEFAULT_GROUP_SIZE } });
  });
});
