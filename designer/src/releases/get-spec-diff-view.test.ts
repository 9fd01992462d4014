import { getAgentSpecDiff, AgentSpec } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { formatDiffValue, getSpecDiffView } from "./get-spec-diff-view.js";

const base = AgentSpec.parse({
  version: 1,
  id: "diffed",
  name: "Diffed",
  tools: [
    { name: "lookup", desc: "Looks up", impl: { kind: "mock", output: { answer: "red" } } },
    { name: "gone", desc: "Goes", impl: { kind: "mock", output: {} } },
  ],
  edges: [{ id: "e1", kind: "auto_seq", source: "lookup", target: "gone" }],
});

describe("getSpecDiffView", () => {
  it("reads tools removed, added and changed field by field, then edges, hints, planner and LLM", () => {
    const next = AgentSpec.parse({
      ...base,
      llm: { ...base.llm, temperature: 0.7 },
      planner: { ...base.planner, maxIters: 3 },
      hints: { ...base.hints, prefer_nodes: ["lookup"] },
      tools: [
        {
          ...base.tools[0],
          impl: { kind: "mock", output: { answer: "blue" } },
          argsSchema: { type: "object", properties: { q: { type: "string" } } },
        },
        { name: "fresh", desc: "New", impl: { kind: "mock", output: {} } },
      ],
      edges: [],
    });
    const view = getSpecDiffView(getAgentSpecDiff(base, next));
    expect(view.sections.map((section) => section.key)).toEqual([
      "tools",
      "edges",
      "hints",
      "planner",
      "llm",
    ]);
    const tools = view.sections[0]!.rows;
    expect(tools.map((row) => [row.kind, row.label])).toEqual([
      ["removed", "gone"],
      ["added", "fresh"],
      ["changed", "lookup"],
    ]);
    expect(tools[2]!.fields).toContainEqual({
      kind: "changed",
      path: "impl.output.answer",
      from: '"red"',
      to: '"blue"',
    });
    expect(tools[2]!.fields).toContainEqual(
      expect.objectContaining({ kind: "added", path: "argsSchema.properties.q", to: '{"type":"string"}' }),
    );
    expect(view.sections[1]!.rows).toEqual([{ kind: "removed", label: "lookup → gone (auto-seq)" }]);
    expect(view.sections[4]!.rows[0]).toMatchObject({ kind: "changed", label: "llm.temperature" });
    expect(view.summary).toBe(
      "Tools: 1 added, 1 removed, 1 changed · 1 edge change · hints: 1 field · planner: 1 field · LLM: 1 field",
    );
  });

  it("says when nothing but the layout changed", () => {
    const view = getSpecDiffView(getAgentSpecDiff(base, { ...base, layout: { nodes: {} } } as AgentSpec));
    expect(view.sections).toEqual([]);
    expect(view.summary).toBe("No changes (layout aside)");
  });

  it("names a parallel group and its members, and cuts long values", () => {
    const grouped = AgentSpec.parse({
      ...base,
      groups: [{ id: "g1", kind: "parallel", name: "fetch all", members: ["lookup", "gone"] }],
    });
    const view = getSpecDiffView(getAgentSpecDiff(base, grouped));
    expect(view.sections[0]!.rows).toEqual([{ kind: "added", label: 'Parallel "fetch all": lookup, gone' }]);
    expect(formatDiffValue("x".repeat(500))).toHaveLength(140);
    expect(formatDiffValue(undefined)).toBe("—");
  });
});
