import { describe, expect, it } from "vitest";
import { compressTrajectory, INFORMATIVE_LEVELS, type TrajectoryStepInput } from "./rule-based-compressor.js";
import { createPathologicalTrajectory as createPathologicalSteps } from "../testing/pathological-trajectory.js";
import { estimateJsonTokens } from "../util/token-estimate.js";

describe("compressTrajectory", () => {
  const steps: TrajectoryStepInput[] = [
    { next_node: "search", args: { query: "q" }, observation: { hits: 3, ids: ["a", "b", "c"] } },
    { next_node: "fetch", args: { id: "a" }, failure: { error_code: "tool_timeout", message: "slow" } },
    { next_node: "lookup", args: { id: "b" }, failure: { error_code: "tool_failed", message: "gone" } },
    { next_node: "lookup", args: { id: "c" }, observation: { title: "C" } },
  ];

  it("keeps goals, facts, pending and a digest of the last output", () => {
    const { summary, level, fits } = compressTrajectory({
      query: "Find the report",
      steps,
      budget: 1_000,
      todos: [
        { content: "read it", status: "in_progress" },
        { content: "done already", status: "completed" },
      ],
    });
    expect(level).toBe(0);
    expect(fits).toBe(true);
    expect(summary.goals).toEqual(["Find the report"]);
    expect(summary.facts).toEqual({
      steps_done: 4,
      failed_steps: 2,
      calls: { search: 1, fetch: 1, lookup: 2 },
      latest_results: { lookup: { title: "C" }, search: { hits: 3, ids: ["a", "b", "c"] } },
    });
    // lookup recovered after its failure; fetch did not.
    expect(summary.pending).toEqual([
      "recover from fetch failure (tool_timeout): slow",
      "todo (in_progress): read it",
    ]);
    expect(summary.last_output_digest).toBe('{"title":"C"}');
  });

  it("is deterministic", () => {
    const input = { query: "q", steps: createPathologicalSteps(50), budget: 800 };
    expect(compressTrajectory(input)).toEqual(compressTrajectory(input));
  });

  it("fits a 200-step pathological run into every budget down to the skeleton", () => {
    const pathological = createPathologicalSteps();
    for (const budget of [4_000, 1_500, 600, 200, 60, 30]) {
      const result = compressTrajectory({ query: "why? ".repeat(2_000), steps: pathological, budget });
      expect(result.fits, `budget ${budget}`).toBe(true);
      expect(result.tokens).toBe(estimateJsonTokens(result.summary));
      expect(result.tokens).toBeLessThanOrEqual(budget);
    }
  });

  it("drops detail level by level as the budget shrinks", () => {
    const pathological = createPathologicalSteps();
    const roomy = compressTrajectory({ query: "q", steps: pathological, budget: 20_000 });
    const tight = compressTrajectory({ query: "q", steps: pathological, budget: 300 });
    expect(roomy.level).toBeLessThan(INFORMATIVE_LEVELS);
    expect(tight.level).toBeGreaterThanOrEqual(INFORMATIVE_LEVELS);
  });

  it("says when even the skeleton is over budget", () => {
    const result = compressTrajectory({ query: "q", steps: createPathologicalSteps(3), budget: 5 });
    expect(result.fits).toBe(false);
  });

  it("keeps a `__proto__` tool name as data", () => {
    const { summary } = compressTrajectory({
      query: "q",
      steps: [{ next_node: "__proto__", observation: { a: 1 } }],
      budget: 1_000,
    });
    expect(Object.keys(summary.facts["latest_results"] as object)).toEqual(["__proto__"]);
  });
});
