import { validateAgentSpec } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { DESIGNER_BENCH_AGENT, getBenchGroups, makeBenchAgentSpec } from "./bench-agent-spec.js";

describe("makeBenchAgentSpec", () => {
  it("is a valid agent of 300 tools and 600 distinct edges, with no issue at all", () => {
    const result = validateAgentSpec(makeBenchAgentSpec());
    expect(result.issues).toEqual([]);
    expect(result.ok).toBe(true);
    const spec = result.spec!;
    expect(spec.tools).toHaveLength(DESIGNER_BENCH_AGENT.tools);
    expect(spec.edges).toHaveLength(DESIGNER_BENCH_AGENT.edges);
    expect(new Set(spec.edges.map((edge) => `${edge.source}>${edge.target}`)).size).toBe(600);
    expect(spec.groups).toHaveLength(20);
  });

  it("lays out every tool and group frame", () => {
    const spec = makeBenchAgentSpec({ id: "small", tools: 30, edges: 40 });
    const nodes = spec.layout?.nodes ?? {};
    for (const tool of spec.tools ?? []) expect(nodes[tool.name]).toBeDefined();
    for (const group of getBenchGroups(30)) expect(nodes[`group:${group.id}`]).toBeDefined();
  });

  it("refuses more edges than the tools can hold", () => {
    expect(() => makeBenchAgentSpec({ id: "tiny", tools: 3, edges: 4 })).toThrow(RangeError);
  });
});
