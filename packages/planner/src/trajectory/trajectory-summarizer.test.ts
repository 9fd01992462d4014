import { describe, expect, it } from "vitest";
import { createPathologicalTrajectory } from "../testing/pathological-trajectory.js";
import { ScriptedClient } from "../testing/scripted-client.js";
import { summarizeTrajectory } from "./trajectory-summarizer.js";

const steps = createPathologicalTrajectory();
const query = "Investigate the outage and summarize the root cause";
const budget = 400;
const good = {
  goals: ["find the outage root cause"],
  facts: { steps_done: 200, failing_tool: "tool_5" },
  pending: ["answer the user"],
  last_output_digest: "rows of tool_4",
};

describe("summarizeTrajectory", () => {
  it("uses the rule-based state alone when it fits without losing detail", async () => {
    const llm = new ScriptedClient([]);
    const result = await summarizeTrajectory({
      query,
      steps: steps.slice(0, 3),
      budget: 50_000,
      llm,
    });
    expect(result.method).toBe("rule_based");
    expect(result.summary_note).toBeUndefined();
    expect(llm.calls).toHaveLength(0);
  });

  it("without an LLM, truncates deterministically under budget and says so", async () => {
    const result = await summarizeTrajectory({ query, steps, budget });
    expect(result.method).toBe("rule_based");
    expect(result.after_tokens).toBeLessThanOrEqual(budget);
    expect(result.before_tokens).toBeGreaterThan(100 * budget);
    expect(result.summary_note).toContain("dropped detail");
  });

  it("reports the caller's own before_tokens instead of estimating the trajectory again", async () => {
    const result = await summarizeTrajectory({ query, steps, budget, beforeTokens: 123_456 });
    expect(result.before_tokens).toBe(123_456);
    expect(result.after_tokens).toBeLessThanOrEqual(budget);
  });

  it("asks the summarizer LLM with a short JSON-only prompt when detail would be lost", async () => {
    const llm = new ScriptedClient([good]);
    const result = await summarizeTrajectory({ query, steps, budget, llm });
    expect(result).toMatchObject({ method: "llm", summary: good });
    expect(result.after_tokens).toBeLessThanOrEqual(budget);
    expect(result.usage?.llmCalls).toBe(1);
    const [call] = llm.calls;
    expect(call?.purpose).toBe("summarize");
    expect(call?.responseFormat).toBe("json_object");
    // The summarizer reads a bounded draft, not the 200 raw observations.
    const promptChars = call!.messages.reduce((sum, message) => sum + message.content.length, 0);
    expect(promptChars).toBeLessThan(budget * 4 * 4 + 2_000);
  });

  it("repairs an invalid reply", async () => {
    const llm = new ScriptedClient(["here you go: not json", { goals: "wrong type" }, good]);
    const result = await summarizeTrajectory({ query, steps, budget, llm, repairAttempts: 2 });
    expect(result.method).toBe("llm");
    expect(llm.calls.map((call) => call.purpose)).toEqual(["summarize", "repair", "repair"]);
    expect(llm.calls[1]?.messages.at(-1)?.content).toContain("not a JSON object");
  });

  it("treats an over-budget summary as unusable", async () => {
    const tooLong = { ...good, last_output_digest: "z".repeat(budget * 8) };
    const llm = new ScriptedClient([tooLong, good]);
    const result = await summarizeTrajectory({ query, steps, budget, llm, repairAttempts: 1 });
    expect(result.method).toBe("llm");
    expect(llm.calls[1]?.messages.at(-1)?.content).toContain("over the 400-token budget");
  });

  it("falls back to the rule-based state with a summary_note after 1–2 repairs", async () => {
    for (const [repairAttempts, calls] of [
      [0, 2],
      [1, 2],
      [2, 3],
      [9, 3],
    ] as const) {
      const llm = new ScriptedClient(Array.from({ length: 5 }, () => "{broken"));
      const result = await summarizeTrajectory({ query, steps, budget, llm, repairAttempts });
      expect(result.method).toBe("rule_based_fallback");
      expect(result.after_tokens).toBeLessThanOrEqual(budget);
      expect(result.summary_note).toMatch(/repair attempt/);
      expect(llm.calls).toHaveLength(calls);
      expect(result.usage?.llmCalls).toBe(calls);
    }
  });

  it("falls back when the summarizer call fails, and reports each call", async () => {
    const seen: string[] = [];
    const llm = new ScriptedClient(["{broken", new Error("endpoint down")]);
    const result = await summarizeTrajectory({
      query,
      steps,
      budget,
      llm,
      repairAttempts: 2,
      onLlmCall: (call) => seen.push(call.content),
    });
    expect(result.method).toBe("rule_based_fallback");
    expect(result.summary_note).toContain("endpoint down");
    expect(seen).toEqual(["{broken"]);
  });

  it("stops when the run is cancelled", async () => {
    const controller = new AbortController();
    controller.abort(new Error("cancelled"));
    const llm = new ScriptedClient([good]);
    await expect(
      summarizeTrajectory({ query, steps, budget, llm, signal: controller.signal }),
    ).rejects.toThrow("cancelled");
  });
});
