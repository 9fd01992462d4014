import { describe, expect, it } from "vitest";
import { z } from "zod";
import { buildCatalog } from "../catalog/catalog.js";
import { ReactPlanner } from "./react-planner.js";
import { createPathologicalTrajectory } from "../testing/pathological-trajectory.js";
import { answer, call, createEventLog } from "../testing/run-harness.js";
import { ScriptedClient, type ScriptedCall, type ScriptedReply } from "../testing/scripted-client.js";
import { estimateTokens } from "../util/token-estimate.js";
import { defineTool } from "../catalog/tool.js";

const pathological = createPathologicalTrajectory(200);

/** Seven tools (tool_0 … tool_6) that return step i of the pathological trajectory: ~100 kB each. */
const probes = Array.from({ length: 7 }, (_, index) =>
  defineTool({
    name: `tool_${index}`,
    desc: "Reads one page of a very large log",
    args: z.object({ i: z.int().min(0) }),
    out: z.record(z.string(), z.unknown()),
    retry: { maxAttempts: 1 },
    run: ({ i }) => {
      const step = pathological[i]!;
      if (step.failure !== undefined) throw new Error(step.failure.message);
      return step.observation as Record<string, unknown>;
    },
  }),
);
const probe = (i: number) => call(pathological[i]!.next_node, { i });

const goodSummary = {
  goals: ["find the outage root cause"],
  facts: { pages_read: "many" },
  pending: ["read the remaining pages"],
  last_output_digest: "rows of the latest page",
};

/** The same reply for every call (`count` of them). */
const every = (count: number, reply: ScriptedReply): ScriptedReply[] =>
  Array<ScriptedReply>(count).fill(reply);

/** Calls probe 0..steps-1, then answers. */
function prober(steps: number): ScriptedReply {
  let next = 0;
  return () => (next < steps ? probe(next++) : answer("The root cause is in page 42."));
}

function makePlanner(input: { budget: number; steps: number; summarizer?: ScriptedClient }) {
  const llm = new ScriptedClient(every(input.steps + 1, prober(input.steps)));
  const planner = new ReactPlanner({
    llm,
    catalog: buildCatalog({ tools: probes }),
    options: { maxIters: input.steps + 5, tokenBudget: input.budget },
    ...(input.summarizer === undefined ? {} : { summarizerLlm: input.summarizer }),
  });
  return { planner, llm };
}

const promptTokens = (entry: ScriptedCall): number => estimateTokens(entry.messages);

describe("summarization in the message builder", () => {
  it("keeps every prompt of a 200-step pathological run under the token budget", async () => {
    const budget = 1_500;
    const summarizer = new ScriptedClient(every(400, goodSummary));
    const { planner, llm } = makePlanner({ budget, steps: 200, summarizer });
    const log = createEventLog();
    const result = await planner.run("Investigate the outage and summarize the root cause", {
      onEvent: log.onEvent,
    });
    expect(result).toMatchObject({ kind: "finish", reason: "answer_complete" });
    expect(llm.calls).toHaveLength(201);
    const largest = Math.max(...llm.calls.map(promptTokens));
    expect(largest).toBeLessThanOrEqual(budget);
    const compactions = log.ofType("summary_compacted");
    expect(compactions.length).toBeGreaterThan(100);
    for (const event of compactions) {
      expect(event.data.after_tokens).toBeLessThanOrEqual(budget);
      expect(event.data.before_tokens).toBeGreaterThan(budget);
    }
    expect(new Set(compactions.map((event) => event.data.method))).toContain("llm");
    // The summarizer's calls are counted, apart from the planner's.
    expect(summarizer.calls.every((entry) => entry.purpose === "summarize")).toBe(true);
    const purposes = log.ofType("llm_call").map((event) => event.data.purpose);
    expect(purposes.filter((purpose) => purpose === "summarize")).toHaveLength(summarizer.calls.length);
    expect(llm.calls.at(-1)?.messages.some((message) => message.content.includes("trajectory_summary"))).toBe(
      true,
    );
  }, 60_000);

  it("uses the rule-based state alone when it keeps enough detail, and only over budget", async () => {
    const { planner, llm } = makePlanner({ budget: 60_000, steps: 3 });
    const log = createEventLog();
    await planner.run("x", { onEvent: log.onEvent });
    const compactions = log.ofType("summary_compacted");
    expect(compactions.length).toBeGreaterThan(0);
    expect(compactions.every((event) => event.data.method === "rule_based")).toBe(true);
    expect(llm.calls.every((entry) => entry.purpose === "plan")).toBe(true);
    const small = makePlanner({ budget: 1_000_000, steps: 3 });
    const quiet = createEventLog();
    await small.planner.run("x", { onEvent: quiet.onEvent });
    expect(quiet.ofType("summary_compacted")).toEqual([]);
  });

  it("falls back to the rule-based state with a summary_note when the summarizer keeps failing", async () => {
    const summarizer = new ScriptedClient(every(50, "not json at all"));
    const { planner } = makePlanner({ budget: 1_400, steps: 10, summarizer });
    const log = createEventLog();
    const result = await planner.run("x", { onEvent: log.onEvent });
    expect(result.kind).toBe("finish");
    const fallback = log
      .ofType("summary_compacted")
      .find((event) => event.data.method === "rule_based_fallback");
    expect(fallback?.data.summary_note).toMatch(/unusable/);
  });

  it("asks the main LLM to summarize when no summarizer is configured", async () => {
    const steps = 10;
    let next = 0;
    const llm = new ScriptedClient(
      every(40, (entry) => {
        if (entry.purpose === "summarize" || entry.purpose === "repair") return goodSummary;
        return next < steps ? probe(next++) : answer("done");
      }),
    );
    const planner = new ReactPlanner({
      llm,
      catalog: buildCatalog({ tools: probes }),
      options: { maxIters: 15, tokenBudget: 1_400 },
    });
    await planner.run("x");
    expect(llm.calls.some((entry) => entry.purpose === "summarize")).toBe(true);
  });

  it("rebuilds the compacted prompt on resume", async () => {
    const send = defineTool({
      name: "send",
      desc: "Sends the report",
      args: z.object({}),
      out: z.object({ sent: z.boolean() }),
      requiresApproval: true,
      run: () => ({ sent: true }),
    });
    const replies: ScriptedReply[] = [probe(0), probe(1), call("send"), answer("sent")];
    const llm = new ScriptedClient(replies);
    const planner = new ReactPlanner({
      llm,
      catalog: buildCatalog({ tools: [...probes, send] }),
      options: { tokenBudget: 3_000 },
      summarizerLlm: new ScriptedClient(every(10, goodSummary)),
    });
    const pause = await planner.run("x");
    if (pause.kind !== "pause") throw new Error("expected a pause");
    await planner.resume(pause.resumeToken, { decision: "approve" });
    const last = llm.calls.at(-1)!;
    expect(promptTokens(last)).toBeLessThanOrEqual(3_000);
    expect(last.messages[2]?.content).toContain("trajectory_summary");
  });
});
