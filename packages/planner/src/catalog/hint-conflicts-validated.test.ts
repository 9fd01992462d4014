import { AgentSpec, validateAgentSpec, type AgentSpecInput, type SpecIssueCode } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Catalog, fromDefinition } from "./catalog.js";
import { findHintConflicts, resolveHints, type HintConflict } from "./resolve-hints.js";
import { defineTool } from "./tool.js";

const NAMES = ["triage", "live", "cached", "merge"];
const tool = (name: string) =>
  fromDefinition(defineTool({ name, desc: name, args: z.object({}), out: z.object({}), run: () => ({}) }));
const catalog = new Catalog(NAMES.map(tool));

const spec = (extra: Partial<AgentSpecInput>): AgentSpecInput => ({
  version: 1,
  id: "hinted",
  name: "Hinted",
  tools: NAMES.map((name) => ({ name, desc: name, impl: { kind: "mock", output: {} } })),
  ...extra,
});

/** Each conflict the planner pauses every run on, and the error validation reports for it. */
const CASES: { kind: HintConflict["kind"]; code: SpecIssueCode; spec: AgentSpecInput }[] = [
  {
    kind: "ordering_disallowed",
    code: "ordering_disallowed",
    spec: spec({ hints: { ordering_hints: ["triage", "live"], disallow_nodes: ["live"] } }),
  },
  {
    kind: "all_disallowed",
    code: "all_tools_disallowed",
    spec: spec({ hints: { disallow_nodes: NAMES } }),
  },
  {
    kind: "sequential_in_group",
    code: "sequential_only_in_parallel_group",
    spec: spec({ hints: { sequential_only: ["cached"], parallel_groups: [["cached", "live"]] } }),
  },
  {
    kind: "join_disallowed",
    code: "join_disallowed",
    spec: spec({
      hints: { disallow_nodes: ["merge"] },
      groups: [
        { id: "g", kind: "parallel", name: "G", members: ["live", "cached"], join: { tool: "merge" } },
      ],
    }),
  },
];

describe("validation catches every hint conflict the planner would pause on", () => {
  it.each(CASES)("$kind is the error $code", ({ kind, code, spec: input }) => {
    const result = validateAgentSpec(input);
    // The schema alone accepts it: a run of it would start, and pause.
    const parsed = AgentSpec.parse(input);
    const conflicts = findHintConflicts(
      resolveHints({ hints: parsed.hints, edges: parsed.edges, groups: parsed.groups }),
      catalog,
    );
    expect(conflicts.map((conflict) => conflict.kind)).toContain(kind);
    expect(result.ok).toBe(false);
    expect(result.issues).toContainEqual(expect.objectContaining({ severity: "error", code }));
  });
});
