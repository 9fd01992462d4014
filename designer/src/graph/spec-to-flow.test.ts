import { describe, expect, it } from "vitest";
import { validateAgentSpec } from "@waddle/protocol";
import { applySpecChange } from "../store/apply-spec-change.js";
import { makeLargeSpec } from "../testing/make-large-spec.js";
import { makeSpec, makeTool } from "../testing/make-spec.js";
import type { FlowNode, ToolFlowNode } from "./flow-types.js";
import { getDragStopChange, getDropGroup, getResizeStopChange } from "./get-drag-stop-change.js";
import { getIssueIndex } from "./get-issue-index.js";
import { reconcileEdges, reconcileNodes } from "./reconcile-nodes.js";
import { specToFlow } from "./spec-to-flow.js";

const spec = makeSpec({
  tools: ["alpha", "beta", "gamma", "merge"].map((name) => makeTool(name)),
  edges: [
    { id: "a-b", kind: "auto_seq", source: "alpha", target: "beta" },
    { id: "b-c", kind: "order", source: "beta", target: "gamma" },
  ],
  groups: [
    {
      id: "pair",
      kind: "parallel",
      name: "Pair",
      members: ["beta", "gamma"],
      join: { tool: "merge", args: {}, inject: {} },
    },
  ],
  hints: { prefer_nodes: ["alpha"], disallow_nodes: ["merge"], sequential_only: ["alpha"] },
  layout: {
    nodes: {
      alpha: { x: 0, y: 0 },
      "group:pair": { x: 400, y: 0, width: 300, height: 300 },
      beta: { x: 24, y: 48 },
      gamma: { x: 24, y: 170 },
      merge: { x: 800, y: 100 },
    },
  },
});

const byId = (nodes: FlowNode[], id: string) => nodes.find((node) => node.id === id);

describe("specToFlow", () => {
  it("puts group frames first and members inside them, relative to the frame", () => {
    const { nodes } = specToFlow(spec);
    expect(nodes.map((node) => node.id)).toEqual(["group:pair", "alpha", "beta", "gamma", "merge"]);
    expect(byId(nodes, "group:pair")).toMatchObject({
      type: "group",
      position: { x: 400, y: 0 },
      width: 300,
      height: 300,
    });
    expect(byId(nodes, "beta")).toMatchObject({ parentId: "group:pair", position: { x: 24, y: 48 } });
    expect(byId(nodes, "alpha")?.parentId).toBeUndefined();
  });

  it("marks hints, joins, selection and issues on nodes", () => {
    const invalid = applySpecChange(spec, {
      type: "updateTool",
      name: "gamma",
      patch: { argsSchema: { type: "string" } },
    });
    const issues = getIssueIndex(validateAgentSpec(invalid).issues);
    const { nodes } = specToFlow(invalid, { issues, selection: { nodes: ["alpha"], edges: [] } });
    const alpha = byId(nodes, "alpha") as ToolFlowNode;
    expect(alpha.selected).toBe(true);
    expect(alpha.data).toMatchObject({
      preferred: true,
      sequentialOnly: true,
      disallowed: false,
      issues: null,
    });
    expect((byId(nodes, "merge") as ToolFlowNode).data).toMatchObject({ disallowed: true, joinOf: "Pair" });
    expect((byId(nodes, "gamma") as ToolFlowNode).data.issues).toMatchObject({ errors: 1 });
  });

  it("draws spec edges, a join edge and suggested edges", () => {
    const { edges } = specToFlow(spec, {
      suggestions: [{ source: "alpha", target: "merge", matched: ["text"] }],
    });
    expect(edges.map((edge) => [edge.id, edge.type, edge.source, edge.target])).toEqual([
      ["a-b", "spec", "alpha", "beta"],
      ["b-c", "spec", "beta", "gamma"],
      ["join:pair", "join", "group:pair", "merge"],
      ["suggested:alpha->merge", "suggested", "alpha", "merge"],
    ]);
    expect(edges[0]?.data).toMatchObject({ kind: "auto_seq" });
  });
});

describe("flow → spec", () => {
  it("writes a moved tool's position back, and moving it back restores the spec", () => {
    const moved = getDragStopChange(spec, [
      { id: "alpha", position: { x: 10.2, y: -20.7 }, absolute: { x: 10.2, y: -20.7 } },
    ]);
    const next = applySpecChange(spec, moved ?? { type: "batch", label: "", changes: [] });
    expect(next.layout.nodes.alpha).toEqual({ x: 10, y: -21 });
    const back = getDragStopChange(next, [
      { id: "alpha", position: { x: 0, y: 0 }, absolute: { x: 0, y: 0 } },
    ]);
    expect(applySpecChange(next, back ?? { type: "batch", label: "", changes: [] })).toEqual(spec);
    expect(specToFlow(next).nodes.find((node) => node.id === "alpha")?.position).toEqual({ x: 10, y: -21 });
  });

  it("turns a drop into a frame into membership, and a drop outside into leaving", () => {
    expect(getDropGroup(spec, { tool: "alpha", absolute: { x: 420, y: 100 } })).toBe("pair");
    const into = getDragStopChange(spec, [
      { id: "alpha", position: { x: 430, y: 60 }, absolute: { x: 430, y: 60 } },
    ]);
    expect(into).toEqual({
      type: "setMembership",
      tool: "alpha",
      groupId: "pair",
      position: { x: 430, y: 60 },
    });
    const joined = applySpecChange(spec, into ?? { type: "batch", label: "", changes: [] });
    expect(joined.groups[0]?.members).toEqual(["beta", "gamma", "alpha"]);
    expect(specToFlow(joined).nodes.find((node) => node.id === "alpha")).toMatchObject({
      parentId: "group:pair",
      position: { x: 30, y: 60 },
    });
    const out = getDragStopChange(joined, [
      { id: "beta", position: { x: 600, y: 400 }, absolute: { x: 1000, y: 400 } },
    ]);
    const left = applySpecChange(joined, out ?? { type: "batch", label: "", changes: [] });
    expect(left.groups[0]?.members).toEqual(["gamma", "alpha"]);
    expect(left.layout.nodes.beta).toEqual({ x: 1000, y: 400 });
  });

  it("moves a frame without touching its members, and resizes it", () => {
    const change = getDragStopChange(spec, [
      { id: "group:pair", position: { x: 500, y: 50 }, absolute: { x: 500, y: 50 } },
      { id: "beta", position: { x: 24, y: 48 }, absolute: { x: 524, y: 98 } },
    ]);
    expect(change).toEqual({
      type: "moveNodes",
      positions: { "group:pair": { x: 500, y: 50, width: 300, height: 300 } },
    });
    const resized = applySpecChange(
      spec,
      getResizeStopChange({ id: "group:pair", position: { x: 400, y: 0 }, width: 420.4, height: 310 }),
    );
    expect(resized.layout.nodes["group:pair"]).toEqual({ x: 400, y: 0, width: 420, height: 310 });
  });
});

describe("reconcileNodes", () => {
  it("keeps unchanged node objects and measured sizes", () => {
    const first = specToFlow(spec).nodes.map((node) => ({ ...node, measured: { width: 240, height: 90 } }));
    const same = reconcileNodes(first, specToFlow(spec).nodes);
    expect(same).toBe(first);
    const renamedDesc = applySpecChange(spec, {
      type: "updateTool",
      name: "alpha",
      patch: { desc: "changed" },
    });
    const next = reconcileNodes(first, specToFlow(renamedDesc).nodes);
    expect(next).not.toBe(first);
    expect(byId(next, "beta")).toBe(byId(first, "beta"));
    expect(byId(next, "alpha")).not.toBe(byId(first, "alpha"));
    expect(byId(next, "alpha")?.measured).toEqual({ width: 240, height: 90 });
  });

  it("keeps a dragged node's live position", () => {
    const first = specToFlow(spec).nodes.map((node) =>
      node.id === "alpha" ? { ...node, position: { x: 55, y: 66 }, dragging: true } : node,
    );
    const next = reconcileNodes(
      first,
      specToFlow(applySpecChange(spec, { type: "updateTool", name: "alpha", patch: { desc: "x" } })).nodes,
    );
    expect(byId(next, "alpha")?.position).toEqual({ x: 55, y: 66 });
  });
});

describe("reconcileEdges", () => {
  it("keeps unchanged edges, and issue summaries compare by content", () => {
    const first = specToFlow(spec, { issues: getIssueIndex(validateAgentSpec(spec).issues) }).edges;
    const again = specToFlow(spec, { issues: getIssueIndex(validateAgentSpec(spec).issues) }).edges;
    expect(reconcileEdges(first, again)).toBe(first);
    const selected = reconcileEdges(
      first,
      specToFlow(spec, { selection: { nodes: [], edges: ["a-b"] } }).edges,
    );
    expect(selected[0]).not.toBe(first[0]);
    expect(selected[1]).toBe(first[1]);
  });
});

describe("big agents", () => {
  it("one edit on a 300-tool agent re-creates one node and keeps every edge", () => {
    const large = makeLargeSpec(300);
    const issues = getIssueIndex(validateAgentSpec(large).issues);
    const first = specToFlow(large, { issues });
    const edited = applySpecChange(large, {
      type: "updateTool",
      name: "tool_42",
      patch: { desc: "changed" },
    });
    const nodes = reconcileNodes(first.nodes, specToFlow(edited, { issues }).nodes);
    expect(nodes.filter((node, index) => node !== first.nodes[index]).map((node) => node.id)).toEqual([
      "tool_42",
    ]);
    expect(reconcileEdges(first.edges, specToFlow(edited, { issues }).edges)).toBe(first.edges);
  });
});
