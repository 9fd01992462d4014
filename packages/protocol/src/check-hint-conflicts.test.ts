import { describe, expect, it } from "vitest";
import type { AgentSpecInput } from "./agent-spec.js";
import { makeTestSpec } from "./test-specs.js";
import { validateAgentSpec } from "./validate-agent-spec.js";

/** The issues of a spec (tools alpha, beta, gamma, join_all) with these hints and groups. */
function getIssues(overrides: Partial<AgentSpecInput>) {
  const result = validateAgentSpec(makeTestSpec(overrides));
  return {
    ok: result.ok,
    issues: result.issues.map(({ severity, code, path, message }) => ({ severity, code, path, message })),
  };
}

describe("conflicts between planning hints are errors that say what to change", () => {
  it("a tool that ordering_hints require and disallow_nodes forbid", () => {
    const { ok, issues } = getIssues({
      hints: { ordering_hints: ["alpha", "beta", "gamma"], disallow_nodes: ["beta"] },
    });
    expect(ok).toBe(false);
    expect(issues).toEqual([
      {
        severity: "error",
        code: "ordering_disallowed",
        path: "$.hints.ordering_hints[1]",
        message: expect.stringMatching(
          /requires beta, which disallow_nodes forbids.*Take beta out of ordering_hints or out of disallow_nodes/,
        ),
      },
    ]);
  });

  it("a tool both preferred and disallowed", () => {
    const { ok, issues } = getIssues({
      hints: { prefer_nodes: ["alpha"], disallow_nodes: ["gamma", "alpha"] },
    });
    expect(ok).toBe(false);
    expect(issues).toEqual([
      {
        severity: "error",
        code: "disallowed_and_preferred",
        path: "$.hints.disallow_nodes[1]",
        message: expect.stringContaining("Take it out of one of the two lists"),
      },
    ]);
  });

  it("a sequential_only tool in a parallel group, drawn or hinted", () => {
    const drawn = getIssues({
      hints: { sequential_only: ["beta"] },
      groups: [{ id: "g", kind: "parallel", name: "Lookups", members: ["alpha", "beta"] }],
    });
    expect(drawn.ok).toBe(false);
    expect(drawn.issues).toEqual([
      {
        severity: "error",
        code: "sequential_only_in_parallel_group",
        path: "$.groups[0].members[1]",
        message: expect.stringMatching(
          /parallel group "Lookups".*Take beta out of the group or out of sequential_only/,
        ),
      },
    ]);
    const hinted = getIssues({
      hints: { sequential_only: ["alpha"], parallel_groups: [["alpha", "gamma"]] },
    });
    expect(hinted.issues).toEqual([
      expect.objectContaining({
        severity: "error",
        code: "sequential_only_in_parallel_group",
        path: "$.hints.parallel_groups[0][0]",
      }),
    ]);
  });

  it("a group's join tool that disallow_nodes forbid", () => {
    const { ok, issues } = getIssues({
      hints: { disallow_nodes: ["join_all"] },
      groups: [
        {
          id: "g",
          kind: "parallel",
          name: "Lookups",
          members: ["alpha", "beta"],
          join: { tool: "join_all" },
        },
      ],
    });
    expect(ok).toBe(false);
    expect(issues).toEqual([
      expect.objectContaining({
        severity: "error",
        code: "join_disallowed",
        path: "$.groups[0].join.tool",
        message: expect.stringContaining("Pick another join tool, or take join_all out of disallow_nodes"),
      }),
    ]);
  });

  it("every tool disallowed", () => {
    const { ok, issues } = getIssues({ hints: { disallow_nodes: ["alpha", "beta", "gamma", "join_all"] } });
    expect(ok).toBe(false);
    expect(issues).toEqual([
      expect.objectContaining({
        severity: "error",
        code: "all_tools_disallowed",
        path: "$.hints.disallow_nodes",
      }),
    ]);
  });

  it("a hint naming a tool the agent does not have is an error once, not also a conflict", () => {
    const { ok, issues } = getIssues({
      hints: { ordering_hints: ["alpha", "ghost"], disallow_nodes: ["ghost"] },
    });
    expect(ok).toBe(false);
    expect(issues).toEqual([
      expect.objectContaining({ severity: "error", code: "unknown_tool", path: "$.hints.ordering_hints[1]" }),
      expect.objectContaining({ severity: "error", code: "unknown_tool", path: "$.hints.disallow_nodes[0]" }),
    ]);
  });

  it("hints that agree are valid: a disallowed tool nothing asks for, a preferred one ordered", () => {
    const { ok, issues } = getIssues({
      hints: {
        ordering_hints: ["alpha", "beta"],
        prefer_nodes: ["beta"],
        disallow_nodes: ["gamma"],
        sequential_only: ["join_all"],
        parallel_groups: [["alpha", "beta"]],
      },
    });
    expect(issues).toEqual([]);
    expect(ok).toBe(true);
  });
});
