import { describe, expect, it } from "vitest";
import {
  isPlanningHintsLike,
  normalizePlanningHints,
  PenguiFlowHintsInput,
  PlanningHints,
} from "./planning-hints.js";

// Seed 001's example, verbatim.
const penguiflowHints = {
  ordering_hints: ["triage", "retrieve_docs", "rerank", "summarize"],
  parallel_groups: [["retrieve_docs_A", "retrieve_docs_B"]],
  sequential_only: ["apply_compliance", "send_email"],
  disallow_nodes: ["expensive_tool_v1"],
  prefer_nodes: ["cached_search"],
  budget_hints: { max_parallel: 2, max_cost_usd: 0.05 },
};

describe("planning hints", () => {
  it("accepts a PenguiFlow planning_hints dict unchanged", () => {
    expect(PlanningHints.parse(penguiflowHints)).toEqual(penguiflowHints);
  });

  it("normalizes loose top-level budget keys", () => {
    const input = PenguiFlowHintsInput.parse({ sequential_only: ["send_slack"], max_parallel: 2 });
    expect(normalizePlanningHints(input)).toMatchObject({
      sequential_only: ["send_slack"],
      budget_hints: { max_parallel: 2 },
    });
  });

  it("lets a top-level max_parallel win over budget_hints.max_parallel, as PenguiFlow does", () => {
    const input = PenguiFlowHintsInput.parse({
      max_parallel: 4,
      budget_hints: { max_parallel: 2, max_cost_usd: 0.1 },
      max_cost_usd: 0.5,
    });
    expect(normalizePlanningHints(input).budget_hints).toEqual({ max_parallel: 4, max_cost_usd: 0.1 });
    const nested = PenguiFlowHintsInput.parse({ budget_hints: { max_parallel: 2 } });
    expect(normalizePlanningHints(nested).budget_hints).toEqual({ max_parallel: 2 });
  });

  it("tells hints from specs", () => {
    expect(isPlanningHintsLike(penguiflowHints)).toBe(true);
    expect(isPlanningHintsLike({ planning_hints: {} })).toBe(true);
    expect(isPlanningHintsLike({ version: 1, tools: [] })).toBe(false);
    expect(isPlanningHintsLike([])).toBe(false);
  });
});
