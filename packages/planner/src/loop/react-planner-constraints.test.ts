import type { PlannerFinishResult, PlannerPauseResult } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { buildCatalog } from "../catalog/catalog.js";
import type { PlannerView } from "../run/planner-view.js";
import { ReactPlanner } from "./react-planner.js";
import type { SerializedPlannerState } from "../run/paused-state.js";
import type { StateStore } from "../pause/state-store.js";
import { loadExampleAgent } from "../testing/load-example-agent.js";
import {
  answer,
  call,
  createEventLog,
  createScriptedPlanner,
  createVirtualTime,
} from "../testing/run-harness.js";
import { ScriptedClient, scriptedReply } from "../testing/scripted-client.js";
import { defineTool } from "../catalog/tool.js";

type Outcome = Awaited<ReturnType<ReactPlanner["run"]>>;

function finished(result: Outcome): PlannerFinishResult {
  if (result.kind !== "finish") throw new Error(`expected a finish, got a pause (${result.reason})`);
  return result;
}

function paused(result: Outcome): PlannerPauseResult {
  if (result.kind !== "pause") throw new Error(`expected a pause, got a finish (${result.reason})`);
  return result;
}

const triageSpec = loadExampleAgent("support-triage");
const withPlanner = (planner: Partial<typeof triageSpec.planner>) => ({
  ...triageSpec,
  planner: { ...triageSpec.planner, ...planner },
});
const withHints = (hints: Partial<typeof triageSpec.hints>) => ({
  ...triageSpec,
  hints: { ...triageSpec.hints, ...hints },
});

function counting(name: string, calls: string[]) {
  return defineTool({
    name,
    desc: `Tool ${name}`,
    args: z.object({ q: z.string().default("") }),
    out: z.object({ from: z.string() }),
    run: () => {
      calls.push(name);
      return { from: name };
    },
  });
}

describe("ReactPlanner: budgets end the run gracefully", () => {
  it("ends with budget_exhausted when the deadline passes", async () => {
    const { planner, client } = createScriptedPlanner(withPlanner({ deadlineS: 0.5 }), [
      call("triage", { text: "x" }),
      call("retrieve_docs", { topic: "billing", query: "x" }),
      call("summarize", { query: "x", docs: [] }),
      answer("late"),
    ]);
    const log = createEventLog();
    const result = finished(await planner.run("x", { onEvent: log.onEvent }));
    // triage (150 ms) and retrieve_docs (400 ms) of virtual latency pass the 500 ms deadline.
    expect(result.reason).toBe("budget_exhausted");
    expect(result.payload.requires_followup).toBe(true);
    expect(result.payload.answer).toMatch(/deadline of 0.5 s/);
    expect(result.payload.answer).toMatch(/Latest result: .*kb-104/);
    expect(log.ofType("constraint_violation").map((event) => event.data)).toEqual([
      expect.objectContaining({ constraint: "deadline", enforced: "finished" }),
    ]);
    expect(client.calls).toHaveLength(2);
  });

  it("ends with budget_exhausted when the hop budget is used up", async () => {
    const { planner } = createScriptedPlanner(withPlanner({ hopBudget: 2 }), [
      call("triage", { text: "x" }),
      call("retrieve_docs", { topic: "billing", query: "x" }),
      call("summarize", { query: "x", docs: [] }),
      answer("never"),
    ]);
    const log = createEventLog();
    const result = finished(await planner.run("x", { onEvent: log.onEvent }));
    expect(result.reason).toBe("budget_exhausted");
    expect(result.metadata.steps).toBe(2);
    expect(log.ofType("tool_start").map((event) => event.data.tool)).toEqual(["triage", "retrieve_docs"]);
    expect(log.ofType("constraint_violation")[0]?.data).toMatchObject({
      constraint: "hop_budget",
      enforced: "finished",
    });
  });

  it("ends with max_iters after maxIters steps", async () => {
    const { planner } = createScriptedPlanner(withPlanner({ maxIters: 2 }), [
      call("triage", { text: "x" }),
      call("triage", { text: "y" }),
      answer("never"),
    ]);
    const result = finished(await planner.run("x"));
    expect(result.reason).toBe("max_iters");
    expect(result.metadata.steps).toBe(2);
  });

  it("ends with budget_exhausted when the prompt outgrows the token budget", async () => {
    const { planner, client } = createScriptedPlanner(withPlanner({ tokenBudget: 50 }), [answer("never")]);
    const log = createEventLog();
    const result = finished(await planner.run("x", { onEvent: log.onEvent }));
    expect(result.reason).toBe("budget_exhausted");
    expect(client.calls).toHaveLength(0);
    expect(log.ofType("constraint_violation")[0]?.data.constraint).toBe("token_budget");
  });

  it("stops at the cost ceiling, from the client's cost or from usage × the price table", async () => {
    const spec = withHints({ budget_hints: { max_cost_usd: 0.05 } });
    const costly = createScriptedPlanner(spec, [
      scriptedReply(call("triage", { text: "x" }), { costUsd: 0.03 }),
      scriptedReply(call("retrieve_docs", { topic: "billing", query: "x" }), { costUsd: 0.03 }),
      answer("never"),
    ]);
    const log = createEventLog();
    const result = finished(await costly.planner.run("x", { onEvent: log.onEvent }));
    expect(result.reason).toBe("budget_exhausted");
    expect(result.metadata.usage.costUsd).toBeCloseTo(0.06);
    expect(log.ofType("tool_start").map((event) => event.data.tool)).toEqual(["triage"]);
    expect(log.ofType("constraint_violation")[0]?.data.constraint).toBe("cost_budget");

    const priced = createScriptedPlanner(
      spec,
      [
        scriptedReply(call("triage", { text: "x" }), {
          usage: { promptTokens: 10_000, completionTokens: 1_000 },
        }),
        answer("never"),
      ],
      { priceTable: { "scripted-model": { inputPerMTok: 5, outputPerMTok: 10 } } },
    );
    const second = finished(await priced.planner.run("x"));
    expect(second.reason).toBe("budget_exhausted");
    expect(second.metadata.usage.costUsd).toBeCloseTo(0.06);
  });

  it("counts tools' costUsd against the ceiling before running them", async () => {
    const spec = withHints({ budget_hints: { max_cost_usd: 0.1 } });
    const expensive = {
      ...spec,
      tools: spec.tools.map((tool) => (tool.name === "retrieve_docs" ? { ...tool, costUsd: 0.5 } : tool)),
    };
    const { planner } = createScriptedPlanner(expensive, [
      call("triage", { text: "x" }),
      call("retrieve_docs", { topic: "billing", query: "x" }),
    ]);
    const log = createEventLog();
    const result = finished(await planner.run("x", { onEvent: log.onEvent }));
    expect(result.reason).toBe("budget_exhausted");
    expect(log.ofType("tool_start").map((event) => event.data.tool)).toEqual(["triage"]);
  });
});

describe("ReactPlanner: hints enforced in code", () => {
  it("never runs a disallowed tool, and pauses with constraints_conflict when the model insists", async () => {
    const calls: string[] = [];
    const client = new ScriptedClient([call("forbidden"), call("forbidden"), call("forbidden")]);
    const planner = new ReactPlanner({
      llm: client,
      catalog: buildCatalog({ tools: [counting("forbidden", calls), counting("allowed", calls)] }),
      hints: { disallow_nodes: ["forbidden"] },
    });
    const log = createEventLog();
    const result = paused(await planner.run("x", { onEvent: log.onEvent }));
    expect(calls).toEqual([]);
    expect(result.reason).toBe("constraints_conflict");
    expect(result.payload).toMatchObject({
      conflicts: [{ kind: "disallowed_required", nodes: ["forbidden"] }],
    });
    // The same refused reply twice: asking a third time would be wasted (docs/repair-and-arg-fill.md).
    expect(client.calls.map((entry) => entry.purpose)).toEqual(["plan", "correction"]);
    expect(client.calls[1]?.messages.at(-1)?.content).toMatch(/forbidden is disallowed/);
    expect(log.ofType("constraint_violation").map((event) => event.data.enforced)).toEqual([
      "rejected",
      "rejected",
    ]);
    expect(log.ofType("pause")[0]?.data.resumeToken).toBe(result.resumeToken);
    expect(client.calls[0]?.messages[0]?.content).toContain("Disallowed tools (never call): forbidden.");
  });

  it("accepts another tool after the correction", async () => {
    const calls: string[] = [];
    const client = new ScriptedClient([call("forbidden"), call("allowed"), answer("ok")]);
    const planner = new ReactPlanner({
      llm: client,
      catalog: buildCatalog({ tools: [counting("forbidden", calls), counting("allowed", calls)] }),
      hints: { disallow_nodes: ["forbidden"] },
    });
    expect(finished(await planner.run("x")).reason).toBe("answer_complete");
    expect(calls).toEqual(["allowed"]);
  });

  it("pauses before the first call when hints make progress impossible", async () => {
    const client = new ScriptedClient([answer("never")]);
    const calls: string[] = [];
    const planner = new ReactPlanner({
      llm: client,
      catalog: buildCatalog({ tools: [counting("a", calls), counting("b", calls)] }),
      hints: { disallow_nodes: ["a", "b"] },
    });
    const result = paused(await planner.run("x"));
    expect(result.reason).toBe("constraints_conflict");
    expect(result.payload.conflicts).toEqual([
      expect.objectContaining({ kind: "all_disallowed", nodes: ["a", "b"] }),
    ]);
    expect(client.calls).toHaveLength(0);
  });

  it("asks one corrective iteration when ordering hints are skipped, then proceeds", async () => {
    const { planner, client } = createScriptedPlanner(triageSpec, [
      call("retrieve_docs", { topic: "billing", query: "x" }),
      call("retrieve_docs", { topic: "billing", query: "x" }),
      call("summarize", { query: "x", docs: [] }),
      answer("ok"),
    ]);
    const log = createEventLog();
    finished(await planner.run("x", { onEvent: log.onEvent }));
    expect(client.calls.map((entry) => entry.purpose)).toEqual(["plan", "correction", "plan", "plan"]);
    expect(client.calls[1]?.messages.at(-1)?.content).toMatch(/retrieve_docs usually comes after triage/);
    // summarize also comes after the skipped triage, but the LLM already confirmed skipping it.
    const violations = log
      .ofType("constraint_violation")
      .map((event) => [event.data.constraint, event.data.node]);
    expect(violations).toEqual([["ordering_hints", "retrieve_docs"]]);
    expect(log.ofType("tool_start").map((event) => event.data.tool)).toEqual(["retrieve_docs", "summarize"]);
  });

  it("nudges toward a preferred tool that accepts the same args, once", async () => {
    const spec = loadExampleAgent("cached-retrieval");
    const { planner, client } = createScriptedPlanner(
      { ...spec, hints: { ...spec.hints, ordering_hints: [], prefer_nodes: ["cached_index"] }, edges: [] },
      [call("live_search", { query: "q" }), call("cached_index", { query: "q" }), answer("ok")],
      { sleep: createVirtualTime().sleep },
    );
    const log = createEventLog();
    finished(await planner.run("x", { onEvent: log.onEvent }));
    expect(client.calls[1]?.purpose).toBe("correction");
    expect(client.calls[1]?.messages.at(-1)?.content).toMatch(/cached_index is preferred over live_search/);
    expect(log.ofType("tool_start").map((event) => event.data.tool)).toEqual(["cached_index"]);
  });
});

describe("ReactPlanner: pauses and opcodes", () => {
  it("pauses for approval before a tool that requires it, saving the state", async () => {
    const saved = new Map<string, SerializedPlannerState>();
    const store: StateStore = {
      save: async (token, state) =>
        void saved.set(token, JSON.parse(JSON.stringify(state)) as SerializedPlannerState),
      load: async (token) => saved.get(token),
      delete: async (token) => void saved.delete(token),
    };
    const spec = loadExampleAgent("email-approval");
    const { planner } = createScriptedPlanner(
      spec,
      [
        call("lookup_contact", { name: "Dana" }),
        call("draft_email", {
          email: "dana.reyes@example.com",
          name: "Dana",
          request: "Budget is approved.",
        }),
        call("send_email", { to: "dana.reyes@example.com", subject: "Quick update", body: "Hi" }),
      ],
      { stateStore: store },
    );
    const log = createEventLog();
    const result = paused(await planner.run("Tell Dana the budget is approved", { onEvent: log.onEvent }));
    expect(result.reason).toBe("approval_required");
    expect(result.payload).toMatchObject({
      tool: "send_email",
      why: "requires_approval",
      safetyNotes: expect.any(String),
    });
    expect(log.ofType("tool_start").map((event) => event.data.tool)).toEqual([
      "lookup_contact",
      "draft_email",
    ]);
    const snapshot = saved.get(result.resumeToken) as {
      state: { steps: unknown[]; seq: number };
      paused: { action: { next_node: string } };
    };
    expect(snapshot.state.steps).toHaveLength(2);
    expect(snapshot.paused.action.next_node).toBe("send_email");
    expect(snapshot.state.seq).toBe(log.events.at(-1)?.seq);
  });

  it("pauses when a tool calls ctx.pause()", async () => {
    const asker = defineTool({
      name: "ask_user",
      desc: "Asks the user",
      args: z.object({ question: z.string() }),
      out: z.object({ reply: z.string() }),
      run: ({ question }, context) => context.pause("await_input", { question }),
    });
    const planner = new ReactPlanner({
      llm: new ScriptedClient([call("ask_user", { question: "Which account?" })]),
      catalog: buildCatalog({ tools: [asker] }),
    });
    const result = paused(await planner.run("x"));
    expect(result).toMatchObject({
      reason: "await_input",
      payload: { question: "Which account?", tool: "ask_user" },
    });
  });

  it("answers task opcodes with a structured error while tasks are not enabled", async () => {
    const client = new ScriptedClient([
      { next_node: "task", args: { name: "bg", mode: "subagent", query: "research" } },
      answer("did it inline"),
    ]);
    const planner = new ReactPlanner({ llm: client, catalog: buildCatalog() });
    finished(await planner.run("x"));
    const observed = JSON.parse(client.calls[1]?.messages.at(-1)?.content ?? "") as {
      failure: { node: string; message: string };
    };
    expect(observed.failure).toMatchObject({
      node: "task.subagent",
      message: "background tasks are not enabled for this agent",
    });
    expect((client.calls[1]?.plannerView as PlannerView).steps[0]?.next_node).toBe("task.subagent");
  });
});
