import { describe, expect, it } from "vitest";
import { makeTestSpec } from "./test-specs.js";
import { validateAgentSpec } from "./validate-agent-spec.js";

const base = makeTestSpec();
const tools = base.tools ?? [];

/** alpha renamed to an invalid name everywhere it is named, as a rename in the designer does. */
function withBadName(name: string) {
  return {
    ...base,
    tools: tools.map((tool) => (tool.name === "alpha" ? { ...tool, name } : tool)),
    edges: [
      { id: "e1", kind: "order", source: name, target: "beta" },
      { id: "e2", kind: "order", source: "gamma", target: name },
    ],
    groups: [
      {
        id: "g",
        kind: "parallel",
        name: "G",
        members: [name, "beta"],
        join: { tool: "join_all", inject: {} },
      },
    ],
    hints: { ordering_hints: [name, "beta"], prefer_nodes: [name] },
    layout: { nodes: { [name]: { x: 0, y: 0 } } },
  };
}

describe("validateAgentSpec: an invalid tool name", () => {
  it("is reported once, at the tool, with no false 'no description' warning", () => {
    const result = validateAgentSpec({ ...base, tools: [{ ...tools[0], name: "Bad Name!" }] });
    expect(result.ok).toBe(false);
    expect(result.issues).toEqual([
      {
        severity: "error",
        code: "invalid_tool_name",
        path: "$.tools[0].name",
        message: expect.stringContaining('"Bad Name!" is not a valid tool name'),
        target: { kind: "tool", id: "Bad Name!" },
      },
    ]);
  });

  it("is not reported again at each edge, group member and hint that names it", () => {
    const result = validateAgentSpec(withBadName("Bad Name!"));
    expect(result.issues.map((issue) => `${issue.code} ${issue.path}`)).toEqual([
      "invalid_tool_name $.tools[0].name",
    ]);
  });

  it("keeps checking the elements that name it for their other problems", () => {
    const spec = withBadName("Bad Name!");
    const result = validateAgentSpec({
      ...spec,
      edges: [...spec.edges, { id: "e3", kind: "order", source: "Bad Name!", target: "ghost" }],
    });
    expect(result.issues.map((issue) => `${issue.code} ${issue.path}`)).toEqual([
      "invalid_tool_name $.tools[0].name",
      "unknown_tool $.edges[2].target",
    ]);
  });

  it("reports a reference to an invalid name that is no tool once, as an unknown tool", () => {
    const result = validateAgentSpec({
      ...base,
      edges: [{ id: "e1", kind: "order", source: "No Such Tool", target: "beta" }],
    });
    expect(result.issues.map((issue) => `${issue.severity} ${issue.code} ${issue.path}`)).toEqual([
      "error unknown_tool $.edges[0].source",
    ]);
  });

  it("still warns about a broken tool's description when it is really missing", () => {
    const { desc: _desc, ...nameless } = tools[0]!;
    const result = validateAgentSpec({
      ...base,
      tools: [{ ...nameless, name: "Bad Name!" }, ...tools.slice(1)],
    });
    expect(result.issues.map((issue) => `${issue.code} ${issue.path}`)).toEqual([
      "invalid_tool_name $.tools[0].name",
      "missing_description $.tools[0].desc",
    ]);
  });

  it("reports a description of the wrong type as that, not as missing", () => {
    const result = validateAgentSpec({ ...base, tools: [{ ...tools[0], name: "Bad Name!", desc: 42 }] });
    expect(result.issues.map((issue) => `${issue.severity} ${issue.code} ${issue.path}`)).toEqual([
      "error invalid_tool_name $.tools[0].name",
      "error invalid_type $.tools[0].desc",
    ]);
  });
});
