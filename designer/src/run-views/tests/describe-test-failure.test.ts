import { describe, expect, it } from "vitest";
import { describeTestFailure, show } from "./describe-test-failure.js";

const trajectory = (order: string, expected: string[], actual: string[]) =>
  describeTestFailure({ check: `trajectory.${order}`, expected, actual, message: "server words" }).sentence;

describe("describeTestFailure", () => {
  it("names the expected tool that a later one overtook", () => {
    expect(trajectory("exact", ["search", "fetch"], ["fetch", "search"])).toBe(
      "Expected tool search to be called before fetch, but fetch ran first.",
    );
  });

  it("says where an exact trajectory stopped short, or ran on", () => {
    expect(trajectory("exact", ["triage", "retrieve_docs", "summarize"], ["triage"])).toBe(
      "Expected tool retrieve_docs to be called after triage, but the run called no more tools.",
    );
    expect(trajectory("exact", ["triage"], [])).toBe(
      "Expected tool triage to be called first, but the run called no tools.",
    );
    expect(trajectory("exact", ["triage"], ["triage", "summarize", "notify"])).toBe(
      "Expected no tool calls after triage, but summarize, notify ran.",
    );
    expect(trajectory("exact", ["triage", "search"], ["triage", "browse"])).toBe(
      "Expected tool search to be called after triage, but browse ran instead (it is not expected at all).",
    );
    expect(trajectory("exact", ["a", "b", "a"], ["a", "a", "b"])).toBe(
      "Expected tool b to be called before a, but a ran first.",
    );
    expect(trajectory("exact", ["a", "b", "c"], ["a", "a", "c"])).toBe(
      "Expected tool b to be called after a, but a ran instead.",
    );
  });

  it("in order: the first expected tool not reached after the previous one", () => {
    expect(trajectory("in_order", ["search", "fetch"], ["search", "log"])).toBe(
      "Expected tool fetch to be called after search, but it never ran.",
    );
    expect(trajectory("in_order", ["search", "fetch"], ["fetch", "search"])).toBe(
      "Expected tool fetch to be called after search, but it ran only before search.",
    );
  });

  it("any order and subset: what is missing, and what ran unexpected when no others are allowed", () => {
    expect(trajectory("any_order", ["a", "b"], ["b", "c"])).toBe(
      "Expected tool a to be called, but it never ran; c ran without being expected.",
    );
    expect(trajectory("subset", ["a", "b", "b"], ["b", "c"])).toBe(
      "Expected tools a, b to be called, but they never ran.",
    );
  });

  it("keeps the server's sentence for other checks and shows expected/actual short", () => {
    const words = describeTestFailure({
      check: "status",
      expected: "finished",
      actual: "paused",
      message: 'The run ended "paused", expected "finished".',
    });
    expect(words).toEqual({
      check: "status",
      sentence: 'The run ended "paused", expected "finished".',
      expected: "finished",
      actual: "paused",
      expectedLabel: "Expected",
      actualLabel: "Actual",
    });
    const unknown = describeTestFailure({
      check: "unknown_tool",
      expected: "check_stock",
      actual: ["lookup_order", "notify"],
      message: "The case names tool check_stock, which this agent version does not have.",
    });
    expect([unknown.expectedLabel, unknown.actualLabel, unknown.actual]).toEqual([
      "Case names",
      "Version has",
      "lookup_order, notify",
    ]);
    expect(describeTestFailure({ check: "answer.regex", expected: "x", actual: null }).sentence).toBe(
      "The check answer.regex did not hold.",
    );
    expect(
      describeTestFailure({ check: "trajectory.forbidden", expected: "never send", actual: ["send"] })
        .sentence,
    ).toBe("Tool send must never be called, but the run called it.");
  });

  it("shows tool lists as arrows and clips long values", () => {
    expect(show(["a", "b"])).toBe("a → b");
    expect(show([])).toBe("(no tool calls)");
    expect(show({ x: 1 })).toBe('{"x":1}');
    expect(show("y".repeat(300))).toHaveLength(201);
  });
});
