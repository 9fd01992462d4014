import type { RunEvent } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { buildCatalog } from "./catalog.js";
import { ReactPlanner } from "../loop/react-planner.js";
import { answer, call } from "../testing/run-harness.js";
import { ScriptedClient } from "../testing/scripted-client.js";
import { defineTool, type ToolRunContext } from "./tool.js";
import type { ToolUsageReportInput } from "./tool-usage-report.js";

/** A module tool that asks a model itself (as the server's llm tools do) and reports what that cost. */
function createAskingTool(report: ToolUsageReportInput) {
  const contexts: ToolRunContext[] = [];
  const tool = defineTool({
    name: "classify",
    desc: "Classify a text with a model",
    args: z.object({ text: z.string() }),
    out: z.object({ label: z.string() }),
    run: (_args, context) => {
      contexts.push(context);
      context.reportUsage(report);
      return { label: "bug" };
    },
  });
  return { tool, contexts };
}

function createPlanner(input: { report: ToolUsageReportInput; maxCostUsd?: number; replies: unknown[] }) {
  const { tool, contexts } = createAskingTool(input.report);
  const catalog = buildCatalog({
    specTools: [{ name: "triage", impl: { kind: "module", ref: "classify" } }],
    moduleTools: [tool],
  });
  // The planner's own calls cost nothing here: only the tool's usage can reach the ceiling.
  const llm = new ScriptedClient(input.replies as never[], {
    defaults: { costUsd: 0 },
    estimateUsage: false,
  });
  const planner = new ReactPlanner({
    llm,
    catalog,
    ...(input.maxCostUsd === undefined
      ? {}
      : { hints: { budget_hints: { max_cost_usd: input.maxCostUsd } } }),
  });
  return { planner, llm, contexts };
}

const triage = call("triage", { text: "it crashes" });

describe("ctx.reportUsage", () => {
  it("adds a tool's model cost to the run, so that budget_hints.max_cost_usd ends it", async () => {
    const { planner, llm } = createPlanner({
      report: {
        provider: "openai",
        model: "gpt-4o",
        promptTokens: 900,
        completionTokens: 100,
        costUsd: 0.03,
      },
      maxCostUsd: 0.05,
      replies: [triage, triage, triage, answer("done")],
    });
    const events: RunEvent[] = [];
    const result = await planner.run("triage this", { onEvent: (event) => events.push(event) });
    expect(result).toMatchObject({ kind: "finish", reason: "budget_exhausted" });
    // two tool calls reached $0.06: the third planning call was never made
    expect(llm.calls).toHaveLength(2);
    expect(result.metadata?.usage).toMatchObject({ promptTokens: 1_800, completionTokens: 200, llmCalls: 4 });
    expect(result.metadata?.usage.costUsd).toBeCloseTo(0.06, 10);
    const toolCalls = events.filter((event) => event.type === "llm_call" && event.data.purpose === "tool");
    expect(toolCalls.map((event) => event.step)).toEqual([0, 1]);
    expect(toolCalls[0]?.data).toMatchObject({
      provider: "openai",
      model: "gpt-4o",
      offline: false,
      promptTokens: 900,
      completionTokens: 100,
      reasoningTokens: 0,
      costUsd: 0.03,
      latencyMs: 0,
    });
    expect(events.find((event) => event.type === "constraint_violation")?.data).toMatchObject({
      constraint: "cost_budget",
    });
  });

  it("prices usage without a cost from the price table, and keeps the subagent purpose", async () => {
    const { planner } = createPlanner({
      report: {
        provider: "openai",
        model: "gpt-4o-mini",
        promptTokens: 1_000_000,
        completionTokens: 0,
        purpose: "subagent",
        latencyMs: 120,
        finishReason: "length",
      },
      replies: [triage, answer("done")],
    });
    const events: RunEvent[] = [];
    const result = await planner.run("triage this", { onEvent: (event) => events.push(event) });
    expect(result).toMatchObject({ kind: "finish", reason: "answer_complete" });
    expect(result.metadata?.usage.costUsd).toBeCloseTo(0.15, 10);
    expect(
      events.find((event) => event.type === "llm_call" && event.data.purpose === "subagent")?.data,
    ).toMatchObject({
      model: "gpt-4o-mini",
      costUsd: expect.closeTo(0.15, 10),
      latencyMs: 120,
      finishReason: "length",
    });
  });

  it("counts nothing once the run has ended (a tool still running after a timeout)", async () => {
    const { planner, contexts } = createPlanner({
      report: { provider: "openai", model: "gpt-4o", promptTokens: 1, completionTokens: 1, costUsd: 0.01 },
      replies: [triage, answer("done")],
    });
    const events: RunEvent[] = [];
    const result = await planner.run("triage this", { onEvent: (event) => events.push(event) });
    const seen = events.length;
    contexts[0]?.reportUsage({ provider: "openai", model: "gpt-4o", promptTokens: 5, completionTokens: 5 });
    expect(events).toHaveLength(seen);
    expect(events.at(-1)?.type).toBe("run_finished");
    expect(result.metadata?.usage.costUsd).toBeCloseTo(0.01, 10);
  });
});
