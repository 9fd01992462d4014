import { PlannerOptions } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { buildCatalog } from "../catalog/catalog.js";
import { renderHints } from "./render-hints.js";
import { resolveHints } from "../catalog/resolve-hints.js";
import { buildSystemPrompt, renderTools } from "./system-prompt.js";
import { loadExampleAgent } from "../testing/load-example-agent.js";

const research = loadExampleAgent("sharded-research");
const catalog = buildCatalog({ specTools: research.tools });

describe("buildSystemPrompt", () => {
  it("holds the unified format, rules, budgets, tools, hints and the extra text last", () => {
    const prompt = buildSystemPrompt({
      catalog,
      hints: resolveHints({ hints: research.hints, edges: research.edges, groups: research.groups }),
      options: PlannerOptions.parse({
        maxIters: 6,
        hopBudget: 9,
        deadlineS: 30,
        systemPromptExtra: "Cite every source.",
      }),
    });
    expect(prompt).toContain('{"next_node": "<tool name or opcode>", "args": {...}}');
    expect(prompt).toContain("$results, $branches, $failures, $success_count, $failure_count, $expect");
    expect(prompt).toContain("Output valid JSON only");
    expect(prompt).toContain("- At most 9 tool calls in total.");
    expect(prompt).toContain("- Finish within 30 seconds.");
    expect(prompt).toContain("1) search_web — ");
    expect(prompt).toContain(
      'args_schema: {"type":"object","properties":{"topic":{"type":"string"},"limit":{"type":"integer","default":3}},"required":["topic"]}',
    );
    expect(prompt).toContain(
      'Parallel group "Search all sources": search_web, search_papers, search_news; join with merge_results (inject results=$results, expect=$expect); at most 3 at once.',
    );
    expect(prompt).not.toContain("task.subagent");
    expect(prompt.endsWith("Cite every source.")).toBe(true);
  });

  it("switches to the legacy format and shows task opcodes only when tasks are enabled", () => {
    const hints = resolveHints({});
    const legacy = buildSystemPrompt({
      catalog,
      hints,
      options: PlannerOptions.parse({ actionFormat: "legacy" }),
    });
    expect(legacy).toContain('"thought"');
    expect(legacy).toContain('"raw_answer"');
    const tasks = buildSystemPrompt({
      catalog,
      hints,
      options: PlannerOptions.parse({ tasks: { enabled: true } }),
    });
    expect(tasks).toContain('"next_node": "task.subagent"');
  });

  it("says so when there are no tools", () => {
    expect(renderTools(buildCatalog())).toBe("Tools: none. Answer with final_response.");
  });
});

describe("renderHints", () => {
  it("renders each hint succinctly and nothing when there are none", () => {
    const lines = renderHints(
      resolveHints({
        hints: {
          disallow_nodes: ["x"],
          ordering_hints: ["a", "b"],
          sequential_only: ["s"],
          prefer_nodes: ["p"],
          budget_hints: { max_parallel: 2, max_cost_usd: 0.05 },
        },
        edges: [{ id: "e", kind: "order", source: "a", target: "b" }],
      }),
      buildCatalog(),
      16,
    );
    expect(lines).toEqual([
      "Disallowed tools (never call): x.",
      "Preferred order (if applicable): a → b.",
      "Order: a before b.",
      "Sequential only (never inside parallel): s.",
      "Prefer these tools when they fit: p.",
      "At most 2 tool calls run at once in a parallel plan.",
      "Cost ceiling for the whole run: $0.05.",
    ]);
    expect(renderHints(resolveHints({}), buildCatalog(), 16)).toEqual([]);
  });
});
