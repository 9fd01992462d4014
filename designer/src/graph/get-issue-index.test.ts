import { validateAgentSpec } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { makeSpec, makeTool } from "../testing/make-spec.js";
import { getIssueIndex } from "./get-issue-index.js";

describe("getIssueIndex", () => {
  it("counts an invalid tool name once, on its node, and on no edge or group naming it", () => {
    const name = "Bad Name!";
    const spec = {
      ...makeSpec(),
      tools: [makeTool("alpha"), makeTool("beta"), makeTool("gamma")].map((tool) =>
        tool.name === "alpha" ? { ...tool, name } : tool,
      ),
      edges: [
        { id: "e1", kind: "order", source: name, target: "beta" },
        { id: "e2", kind: "order", source: "gamma", target: name },
      ],
      groups: [{ id: "g", kind: "parallel", name: "G", members: [name, "beta"] }],
      hints: { ordering_hints: [name, "beta"] },
    };
    const { issues } = validateAgentSpec(spec);
    const index = getIssueIndex(issues);
    expect(index.tools.get(name)).toEqual({ errors: 1, warnings: 0, first: issues[0]?.message });
    expect([...index.edges.keys(), ...index.groups.keys()]).toEqual([]);
    expect({ errors: index.errors, warnings: index.warnings }).toEqual({ errors: 1, warnings: 0 });
  });
});
