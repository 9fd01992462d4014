import { describe, expect, it } from "vitest";
import type { TrajectoryStep } from "../run/run-state.js";
import { createUserMessage, stepResultMessage, TrajectoryMessages } from "./trajectory-messages.js";

const step = (overrides: Partial<TrajectoryStep>): TrajectoryStep => ({
  index: 0,
  next_node: "search",
  args: { q: "x" },
  source: "llm",
  startedAt: 0,
  durationMs: 0,
  ...overrides,
});

describe("TrajectoryMessages", () => {
  it("starts with the system prompt and the query, then appends one pair per step", () => {
    const messages = new TrajectoryMessages("SYSTEM", createUserMessage("hello", { locale: "fr" }));
    messages.appendStep(step({ observation: { docs: [] } }));
    expect(messages.messages).toEqual([
      { role: "system", content: "SYSTEM" },
      { role: "user", content: '{"query":"hello","context":{"locale":"fr"}}' },
      { role: "assistant", content: '{"next_node":"search","args":{"q":"x"}}' },
      { role: "user", content: '{"observation":{"docs":[]}}' },
    ]);
  });

  it("keeps a running token estimate", () => {
    const messages = new TrajectoryMessages("x".repeat(400), createUserMessage("q", undefined));
    const before = messages.estimatedTokens;
    messages.appendStep(step({ observation: "y".repeat(4_000) }));
    expect(messages.estimatedTokens - before).toBeGreaterThan(1_000);
  });

  it("adds repair exchanges without touching its own list, and replaces the history for compaction", () => {
    const messages = new TrajectoryMessages("S", "Q");
    const withRepair = messages.withExchange([{ role: "user", content: "fix it" }]);
    expect(withRepair).toHaveLength(3);
    expect(messages.messages).toHaveLength(2);
    messages.appendStep(step({ observation: 1 }));
    messages.replaceHistory([{ role: "user", content: '{"summary":"short"}' }]);
    expect(messages.messages.map((message) => message.content)).toEqual(["S", "Q", '{"summary":"short"}']);
    expect(messages.estimatedTokens).toBe(Math.ceil(("S" + "Q" + '{"summary":"short"}').length / 4) + 12);
  });
});

describe("stepResultMessage", () => {
  it("wraps failures and observations as docs/messages-and-prompt.md says", () => {
    const failure = { node: "search", args: {}, error_code: "timeout", message: "slow" };
    expect(stepResultMessage(step({ failure }))).toBe(JSON.stringify({ failure }));
    expect(stepResultMessage(step({}))).toBe('{"observation":null}');
  });

  it("writes an observation exactly as JSON.stringify({ observation }) does", () => {
    const observations: unknown[] = [
      { a: [1, "two", null], b: { c: true } },
      'text with "quotes"',
      0,
      null,
      new Date(0),
      () => "not JSON",
    ];
    for (const observation of observations) {
      expect(stepResultMessage(step({ observation }))).toBe(JSON.stringify({ observation }));
    }
  });

  it("appends a planner note as one user message", () => {
    const messages = new TrajectoryMessages("S", "Q");
    messages.appendStep(step({ note: true, observation: { results: 2 } }));
    expect(messages.messages.slice(2)).toEqual([{ role: "user", content: '{"results":2}' }]);
  });
});
