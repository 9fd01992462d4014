import { TestExpect, type TestExpect as Expect } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { checkExpectations, isTrajectoryMatch } from "./check-expectations.js";
import type { RunFacts } from "./run-facts.js";

const facts: RunFacts = {
  status: "finished",
  answer: '{"total": 42, "currency": "EUR"}',
  toolCalls: ["triage", "retrieve", "summarize"],
  llmCalls: 4,
  tokens: 1_000,
  costUsd: 0.02,
  durationMs: 1_500,
  unexpectedCalls: [],
};

const check = (input: unknown, overrides: Partial<RunFacts> = {}) =>
  checkExpectations(TestExpect.parse(input) as Expect, { ...facts, ...overrides });
const checks = (input: unknown, overrides: Partial<RunFacts> = {}) =>
  check(input, overrides).map((failure) => failure.check);

describe("checkExpectations", () => {
  it("passes status, and fails it saying both", () => {
    expect(check({ status: "finished" })).toEqual([]);
    const [failure] = check(
      { status: "finished" },
      { status: "failed", error: { code: "x", message: "boom" } },
    );
    expect(failure).toMatchObject({ check: "status", expected: "finished", actual: "failed" });
    expect(failure?.message).toContain('ended "failed" (x: boom), expected "finished"');
  });

  it.each([
    ["exact", ["triage", "retrieve", "summarize"], ["triage", "summarize"]],
    ["in_order", ["triage", "summarize"], ["summarize", "triage"]],
    ["any_order", ["summarize", "retrieve", "triage"], ["summarize", "triage"]],
    ["subset", ["summarize"], ["summarize", "summarize"]],
  ] as const)("trajectory %s passes and fails", (order, passing, failing) => {
    expect(check({ trajectory: { tools: passing, order } })).toEqual([]);
    const [failure] = check({ trajectory: { tools: failing, order } });
    expect(failure).toMatchObject({
      check: `trajectory.${order}`,
      expected: failing,
      actual: facts.toolCalls,
    });
    expect(failure?.message).toContain("the run called triage → retrieve → summarize");
  });

  it("trajectory forbidden, maxLlmCalls and maxToolCalls pass and fail", () => {
    const base = { tools: [], order: "subset" };
    expect(check({ trajectory: { ...base, forbidden: ["send"], maxLlmCalls: 4, maxToolCalls: 3 } })).toEqual(
      [],
    );
    expect(
      checks({ trajectory: { ...base, forbidden: ["retrieve"], maxLlmCalls: 3, maxToolCalls: 2 } }),
    ).toEqual(["trajectory.forbidden", "trajectory.maxLlmCalls", "trajectory.maxToolCalls"]);
  });

  it("answer equals, contains, regex and jsonSchema pass and fail", () => {
    const schema = {
      type: "object",
      properties: { total: { type: "number" }, currency: { type: "string" } },
      required: ["total"],
    };
    expect(
      check({
        answer: {
          equals: facts.answer,
          contains: ["42", "EUR"],
          regex: '"total":\\s*\\d+',
          jsonSchema: schema,
        },
      }),
    ).toEqual([]);
    const failures = check({
      answer: {
        equals: "something else",
        contains: ["42", "USD"],
        regex: "^total",
        jsonSchema: { ...schema, properties: { ...schema.properties, total: { type: "string" } } },
      },
    });
    expect(failures.map((failure) => failure.check)).toEqual([
      "answer.equals",
      "answer.contains",
      "answer.regex",
      "answer.jsonSchema",
    ]);
    expect(failures[1]?.message).toBe('The answer does not contain "USD".');
    expect(failures[3]?.message).toContain("total");
  });

  it("an invalid regex fails the check with a message that says so", () => {
    expect(check({ answer: { regex: "(" } })[0]?.message).toContain("is not a valid regular expression");
  });

  it("budget maxTokens, maxCostUsd and maxDurationMs pass and fail", () => {
    expect(check({ budget: { maxTokens: 1_000, maxCostUsd: 0.02, maxDurationMs: 1_500 } })).toEqual([]);
    const failures = check({ budget: { maxTokens: 999, maxCostUsd: 0.01, maxDurationMs: 100 } });
    expect(failures.map((failure) => failure.check)).toEqual([
      "budget.maxTokens",
      "budget.maxCostUsd",
      "budget.maxDurationMs",
    ]);
    expect(failures[0]?.message).toBe("Used 1000 tokens, at most 999 allowed.");
  });

  it("an unmatched call under mocks fails the case whatever expect says", () => {
    const failures = check({}, { unexpectedCalls: [{ tool: "retrieve", args: { q: "other" } }] });
    expect(failures).toEqual([
      expect.objectContaining({
        check: "unexpected_tool_call",
        actual: { tool: "retrieve", args: { q: "other" } },
      }),
    ]);
  });
});

describe("isTrajectoryMatch", () => {
  it("any_order refuses extra calls, subset allows them", () => {
    expect(isTrajectoryMatch(["a"], ["a", "b"], "any_order")).toBe(false);
    expect(isTrajectoryMatch(["a"], ["a", "b"], "subset")).toBe(true);
    expect(isTrajectoryMatch([], [], "exact")).toBe(true);
  });
});
