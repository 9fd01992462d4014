import { validateAgentSpec } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { makeSpec, makeTool } from "../testing/make-spec.js";
import { applySpecChange } from "./apply-spec-change.js";

describe("applySpecChange", () => {
  it("adds a tool at an absolute position and keeps the input untouched", () => {
    const spec = makeSpec();
    const before = structuredClone(spec);
    const next = applySpecChange(spec, {
      type: "addTool",
      tool: makeTool("delta"),
      position: { x: 10.4, y: 20.6 },
    });
    expect(next.tools.map((tool) => tool.name)).toEqual(["alpha", "beta", "gamma", "delta"]);
    expect(next.layout.nodes.delta).toEqual({ x: 10, y: 21 });
    expect(spec).toEqual(before);
    expect(next.edges).toBe(spec.edges);
  });

  it("returns the same spec for a change that does nothing", () => {
    const spec = makeSpec();
    expect(applySpecChange(spec, { type: "updateTool", name: "alpha", patch: { desc: "tool alpha" } })).toBe(
      spec,
    );
    expect(applySpecChange(spec, { type: "updateTool", name: "missing", patch: { desc: "x" } })).toBe(spec);
    expect(
      applySpecChange(spec, { type: "addTool", tool: makeTool("alpha"), position: { x: 0, y: 0 } }),
    ).toBe(spec);
    expect(applySpecChange(spec, { type: "renameTool", from: "alpha", to: "beta" })).toBe(spec);
  });

  it("removes optional fields patched to undefined", () => {
    const spec = applySpecChange(makeSpec(), {
      type: "updateTool",
      name: "alpha",
      patch: { timeoutMs: 500 },
    });
    expect(spec.tools[0]?.timeoutMs).toBe(500);
    const cleared = applySpecChange(spec, {
      type: "updateTool",
      name: "alpha",
      patch: { timeoutMs: undefined },
    });
    expect("timeoutMs" in (cleared.tools[0] ?? {})).toBe(false);
  });

  it("renames a tool with every reference to it", () => {
    const spec = makeSpec({
      edges: [{ id: "a-b", kind: "auto_seq", source: "alpha", target: "beta" }],
      groups: [
        {
          id: "g",
          kind: "parallel",
          name: "G",
          members: ["alpha", "beta"],
          join: { tool: "gamma", args: {}, inject: {} },
        },
      ],
      hints: {
        ordering_hints: ["alpha", "gamma"],
        prefer_nodes: ["gamma"],
        parallel_groups: [["alpha", "beta"]],
      },
    });
    const renamed = applySpecChange(spec, { type: "renameTool", from: "alpha", to: "first" });
    const again = applySpecChange(renamed, { type: "renameTool", from: "gamma", to: "merge" });
    expect(again.edges[0]).toMatchObject({ source: "first", target: "beta" });
    expect(again.groups[0]?.members).toEqual(["first", "beta"]);
    expect(again.groups[0]?.join?.tool).toBe("merge");
    expect(again.hints.ordering_hints).toEqual(["first", "merge"]);
    expect(again.hints.prefer_nodes).toEqual(["merge"]);
    expect(again.hints.parallel_groups).toEqual([["first", "beta"]]);
    expect(again.layout.nodes.first).toEqual({ x: 0, y: 0 });
    expect(again.layout.nodes.alpha).toBeUndefined();
    expect(validateAgentSpec(again).ok).toBe(true);
  });

  it("deletes a tool with its edges, memberships, join and hints", () => {
    const spec = makeSpec({
      tools: [makeTool("alpha"), makeTool("beta"), makeTool("gamma"), makeTool("delta")],
      edges: [
        { id: "a-b", kind: "order", source: "alpha", target: "beta" },
        { id: "b-c", kind: "order", source: "beta", target: "gamma" },
      ],
      groups: [
        {
          id: "g",
          kind: "parallel",
          name: "G",
          members: ["alpha", "delta"],
          join: { tool: "beta", args: {}, inject: {} },
        },
      ],
      hints: { sequential_only: ["beta"], parallel_groups: [["beta"]] },
    });
    const next = applySpecChange(spec, { type: "removeElements", tools: ["beta"] });
    expect(next.tools.map((tool) => tool.name)).toEqual(["alpha", "gamma", "delta"]);
    expect(next.edges).toEqual([]);
    expect(next.groups[0]?.join).toBeUndefined();
    expect(next.hints.sequential_only).toEqual([]);
    expect(next.hints.parallel_groups).toEqual([]);
    expect(next.layout.nodes.beta).toBeUndefined();
  });

  it("keeps members of a deleted group where they were on the canvas", () => {
    const spec = makeSpec({
      groups: [{ id: "g", kind: "parallel", name: "G", members: ["alpha"] }],
      layout: { nodes: { "group:g": { x: 100, y: 200, width: 300, height: 200 }, alpha: { x: 24, y: 48 } } },
    });
    const next = applySpecChange(spec, { type: "removeElements", groups: ["g"] });
    expect(next.groups).toEqual([]);
    expect(next.layout.nodes.alpha).toEqual({ x: 124, y: 248 });
    expect(next.layout.nodes["group:g"]).toBeUndefined();
  });

  it("moves a tool into a frame (relative, frame grows) and out again (absolute)", () => {
    const spec = makeSpec({
      groups: [{ id: "g", kind: "parallel", name: "G", members: [] }],
      layout: { nodes: { "group:g": { x: 1000, y: 0, width: 200, height: 100 }, alpha: { x: 0, y: 0 } } },
    });
    const inside = applySpecChange(spec, {
      type: "setMembership",
      tool: "alpha",
      groupId: "g",
      position: { x: 1030, y: 60 },
    });
    expect(inside.groups[0]?.members).toEqual(["alpha"]);
    expect(inside.layout.nodes.alpha).toEqual({ x: 30, y: 60 });
    const frame = inside.layout.nodes["group:g"];
    expect(frame?.width).toBeGreaterThanOrEqual(30 + 240);
    expect(frame?.height).toBeGreaterThanOrEqual(60 + 92);
    const outside = applySpecChange(inside, {
      type: "setMembership",
      tool: "alpha",
      groupId: null,
      position: { x: 5, y: 6 },
    });
    expect(outside.groups[0]?.members).toEqual([]);
    expect(outside.layout.nodes.alpha).toEqual({ x: 5, y: 6 });
  });

  it("creates a group around members, converting their positions to the frame", () => {
    const next = applySpecChange(makeSpec(), {
      type: "addGroup",
      group: { id: "g", kind: "parallel", name: "Both", members: ["alpha", "beta"] },
      frame: { x: -20, y: -40, width: 600, height: 200 },
    });
    expect(next.groups[0]?.members).toEqual(["alpha", "beta"]);
    expect(next.layout.nodes.alpha).toEqual({ x: 20, y: 40 });
    expect(next.layout.nodes.beta).toEqual({ x: 320, y: 40 });
  });

  it("toggles per-tool hints and merges planner options", () => {
    const spec = makeSpec();
    const preferred = applySpecChange(spec, {
      type: "setToolHint",
      tool: "beta",
      list: "prefer_nodes",
      enabled: true,
    });
    expect(preferred.hints.prefer_nodes).toEqual(["beta"]);
    expect(
      applySpecChange(preferred, { type: "setToolHint", tool: "beta", list: "prefer_nodes", enabled: true }),
    ).toBe(preferred);
    const planner = applySpecChange(spec, { type: "updatePlanner", patch: { maxIters: 12, deadlineS: 30 } });
    expect(planner.planner).toMatchObject({ maxIters: 12, deadlineS: 30, repairAttempts: 2 });
    expect(planner.hints).toBe(spec.hints);
  });

  it("applies a batch in order", () => {
    const next = applySpecChange(makeSpec(), {
      type: "batch",
      label: "connect",
      changes: [
        { type: "addEdge", edge: { id: "a-b", kind: "auto_seq", source: "alpha", target: "beta" } },
        { type: "updateTool", name: "beta", patch: { autoSeq: true } },
      ],
    });
    expect(next.edges).toHaveLength(1);
    expect(next.tools[1]?.autoSeq).toBe(true);
  });
});

describe("guards follow their tools", () => {
  const guard = (name: string, tools?: string[]) => ({
    name,
    on: "tool_result" as const,
    check: { kind: "pii" as const },
    action: "redact" as const,
    onError: "block" as const,
    timeoutMs: 10_000,
    ...(tools ? { tools } : {}),
  });

  it("renames a watched tool, and leaves guards that watch every tool alone", () => {
    const spec = makeSpec({ guards: [guard("pii", ["alpha", "beta"]), guard("all")] });
    const next = applySpecChange(spec, { type: "renameTool", from: "alpha", to: "lookup" });
    expect(next.guards.map((item) => item.tools)).toEqual([["lookup", "beta"], undefined]);
    expect(next.guards[1]).toBe(spec.guards[1]);
    expect(validateAgentSpec(next).issues.filter((issue) => issue.path.startsWith("$.guards"))).toEqual([]);
  });

  it("drops a deleted tool, but a guard left watching none keeps the name, so an issue says so", () => {
    const spec = makeSpec({ guards: [guard("pii", ["alpha", "beta"]), guard("only", ["alpha"])] });
    const next = applySpecChange(spec, { type: "removeElements", tools: ["alpha"] });
    expect(next.guards.map((item) => item.tools)).toEqual([["beta"], ["alpha"]]);
    expect(validateAgentSpec(next).issues.map((issue) => issue.path)).toContain("$.guards[1].tools[0]");
  });
});
