import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Catalog, fromDefinition } from "./catalog.js";
import { findGroupFor, findHintConflicts, getOrderingGaps, resolveHints } from "./resolve-hints.js";
import { defineTool } from "./tool.js";

const tool = (name: string) =>
  fromDefinition(defineTool({ name, desc: name, args: z.object({}), out: z.object({}), run: () => ({}) }));
const catalog = new Catalog(["triage", "live", "cached", "summarize", "merge"].map(tool));

describe("resolveHints", () => {
  it("merges hints, order edges and spec groups", () => {
    const hints = resolveHints({
      hints: {
        ordering_hints: ["triage", "summarize"],
        parallel_groups: [["live", "cached"]],
        budget_hints: { max_parallel: 2, max_cost_usd: 0.1 },
      },
      edges: [
        { id: "a", kind: "order", source: "live", target: "summarize" },
        { id: "b", kind: "order", source: "cached", target: "summarize" },
        { id: "c", kind: "auto_seq", source: "triage", target: "live" },
      ],
      groups: [
        {
          id: "g",
          kind: "parallel",
          name: "Both",
          members: ["live", "cached"],
          maxParallel: 1,
          join: { tool: "merge", args: {}, inject: {} },
        },
      ],
    });
    expect(hints.orderSources.get("summarize")).toEqual(["live", "cached"]);
    expect(hints.orderSources.has("live")).toBe(false);
    expect(hints.groups).toHaveLength(2);
    expect(hints.maxParallel).toBe(2);
    expect(hints.maxCostUsd).toBe(0.1);
    expect(findGroupFor(hints, ["cached", "live"])?.members).toEqual(["live", "cached"]);
    expect(findGroupFor(hints, ["live", "triage"])).toBeUndefined();
  });
});

describe("getOrderingGaps", () => {
  const hints = resolveHints({
    hints: { ordering_hints: ["triage", "live", "summarize"], disallow_nodes: ["live"] },
    edges: [
      { id: "a", kind: "order", source: "live", target: "summarize" },
      { id: "b", kind: "order", source: "cached", target: "summarize" },
    ],
  });

  it("asks for every earlier ordering entry, skipping disallowed and unknown tools", () => {
    expect(getOrderingGaps({ hints, tool: "summarize", visited: new Set(), catalog })).toEqual([
      "triage",
      "cached",
    ]);
    expect(getOrderingGaps({ hints, tool: "triage", visited: new Set(), catalog })).toEqual([]);
  });

  it("treats several order edges into one tool as alternatives", () => {
    expect(
      getOrderingGaps({ hints, tool: "summarize", visited: new Set(["triage", "cached"]), catalog }),
    ).toEqual([]);
  });
});

describe("findHintConflicts", () => {
  it("finds hints that make progress impossible", () => {
    const all = resolveHints({ hints: { disallow_nodes: catalog.names as string[] } });
    expect(findHintConflicts(all, catalog).map((conflict) => conflict.kind)).toContain("all_disallowed");
    const mixed = resolveHints({
      hints: {
        ordering_hints: ["triage", "live"],
        disallow_nodes: ["live", "merge"],
        sequential_only: ["cached"],
        parallel_groups: [["cached", "triage"]],
      },
      groups: [
        {
          id: "g",
          kind: "parallel",
          name: "G",
          members: ["live"],
          join: { tool: "merge", args: {}, inject: {} },
        },
      ],
    });
    expect(findHintConflicts(mixed, catalog).map((conflict) => [conflict.kind, conflict.nodes])).toEqual([
      ["ordering_disallowed", ["live"]],
      ["sequential_in_group", ["cached"]],
      ["join_disallowed", ["merge"]],
    ]);
    expect(findHintConflicts(resolveHints({}), catalog)).toEqual([]);
  });
});
