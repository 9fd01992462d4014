import { ContextCapsule } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { buildContextCapsule, CAPSULE_LIMITS } from "./context-capsule.js";

describe("buildContextCapsule", () => {
  it("condenses a run into goal, findings, artifacts, next actions and the plan", () => {
    const capsule = buildContextCapsule({
      goal: "Analyze Q4 sales drivers",
      answer: {
        answer: "Sales grew 12%. Enterprise deals drove most of it!\n- Churn fell in EMEA",
        artifacts: { chart: { kind: "bar", points: 12 } },
        sources: [{ url: "https://example.com/q4", title: "Q4 report" }, { note: "untitled" }],
      },
      steps: [
        { next_node: "search", observation: { hits: 3 } },
        {
          next_node: "fetch",
          failure: { error_code: "tool_timeout", message: "slow", suggestion: "try later" },
        },
        { next_node: "search", observation: { hits: 5 } },
      ],
      todos: {
        revision: 2,
        focus: "sales",
        todos: [
          { id: "a", content: "collect numbers", status: "completed" },
          { id: "b", content: "compare with Q3", status: "pending" },
        ],
      },
    });
    expect(capsule.goal).toBe("Analyze Q4 sales drivers");
    expect(capsule.keyFindings).toEqual([
      "Sales grew 12%.",
      "Enterprise deals drove most of it!",
      "Churn fell in EMEA",
    ]);
    expect(capsule.artifacts).toEqual([
      { type: "artifact", ref: "chart", summary: '{"kind":"bar","points":12}' },
      { type: "source", ref: "https://example.com/q4", summary: "Q4 report" },
      { type: "source", ref: "source 2", summary: '{"note":"untitled"}' },
      { type: "tool_result", ref: "search#3", summary: '{"hits":5}' },
    ]);
    expect(capsule.nextActions).toEqual(["compare with Q3", "retry fetch: try later"]);
    expect(capsule.planSnapshot).toMatchObject({ revision: 2, focus: "sales" });
  });

  it("falls back to the latest results when there is no answer text", () => {
    const capsule = buildContextCapsule({
      goal: "g",
      answer: "",
      steps: [
        { next_node: "a", observation: "first" },
        { next_node: "b", observation: { value: 2 } },
      ],
    });
    expect(capsule.keyFindings).toEqual(['b: {"value":2}', "a: first"]);
    expect(capsule.nextActions).toBeUndefined();
    expect(capsule.planSnapshot).toBeUndefined();
  });

  it("stays bounded whatever the run produced", () => {
    const huge = "x".repeat(20_000);
    const capsule = buildContextCapsule({
      goal: huge,
      answer: {
        answer: Array.from({ length: 40 }, (_, index) => `Finding ${index} ${huge}.`).join(" "),
        artifacts: Object.fromEntries(Array.from({ length: 100 }, (_, index) => [`a${index}`, huge])),
        sources: Array.from({ length: 100 }, () => ({ url: huge, title: huge })),
      },
      steps: Array.from({ length: 300 }, (_, index) =>
        index % 2 === 0
          ? { next_node: `tool_${index}`, observation: { blob: huge } }
          : { next_node: `tool_${index}`, failure: { error_code: "e", message: huge } },
      ),
    });
    expect(ContextCapsule.safeParse(capsule).success).toBe(true);
    expect(capsule.keyFindings).toHaveLength(CAPSULE_LIMITS.findings);
    expect(capsule.artifacts).toHaveLength(CAPSULE_LIMITS.artifacts);
    expect(capsule.nextActions).toHaveLength(CAPSULE_LIMITS.nextActions);
    expect(JSON.stringify(capsule).length).toBeLessThan(8_000);
  });
});
