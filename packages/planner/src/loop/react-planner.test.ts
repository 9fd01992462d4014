import type { PlannerFinishResult } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { buildCatalog } from "../catalog/catalog.js";
import { LlmError } from "../errors/llm-error.js";
import { PlannerError } from "../errors/planner-error.js";
import type { PlannerView } from "../run/planner-view.js";
import { ReactPlanner } from "./react-planner.js";
import { loadExampleAgent } from "../testing/load-example-agent.js";
import {
  answer,
  call,
  createEventLog,
  createScriptedPlanner,
  createVirtualTime,
} from "../testing/run-harness.js";
import { ScriptedClient, scriptedReply, type ScriptedCall } from "../testing/scripted-client.js";
import { defineTool } from "../catalog/tool.js";

const triageSpec = loadExampleAgent("support-triage");
const docs = [
  {
    id: "kb-104",
    title: "Duplicate charges and how refunds work",
    snippet: "Duplicate billing charges are reversed automatically within 5 business days.",
  },
  {
    id: "kb-221",
    title: "Reading your invoice",
    snippet: "Each invoice line shows the billing period and the payment method used.",
  },
];
const happyScript = [
  call("triage", { text: "I was charged twice" }),
  call("retrieve_docs", { topic: "billing", query: "I was charged twice" }),
  call("summarize", { query: "I was charged twice", docs }),
  answer("Duplicate charges are reversed within 5 business days.", {
    sources: [{ id: "kb-104" }],
    confidence: 0.9,
  }),
];

function finished(result: Awaited<ReturnType<ReactPlanner["run"]>>): PlannerFinishResult {
  if (result.kind !== "finish") throw new Error(`expected a finish, got a pause (${result.reason})`);
  return result;
}

describe("ReactPlanner: triage → retrieve → summarize", () => {
  it("runs the example agent to an answer with a typed payload and metadata", async () => {
    const { planner, client } = createScriptedPlanner(triageSpec, happyScript);
    const log = createEventLog();
    const result = finished(
      await planner.run("I was charged twice", { onEvent: log.onEvent, runId: "run-a" }),
    );
    expect(result.reason).toBe("answer_complete");
    expect(result.payload).toEqual({
      answer: "Duplicate charges are reversed within 5 business days.",
      artifacts: {},
      sources: [{ id: "kb-104" }],
      suggested_actions: [],
      confidence: 0.9,
      requires_followup: false,
    });
    expect(result.metadata).toMatchObject({ steps: 3, llmCalls: 4, autoSeqSavedCalls: 0 });
    expect(client.calls.map((entry) => entry.purpose)).toEqual(["plan", "plan", "plan", "plan"]);
    const summary = log.ofType("tool_end").map((event) => [event.data.tool, event.data.observation]);
    expect(summary[0]).toEqual([
      "triage",
      { topic: "billing", urgency: "normal", query: "I was charged twice" },
    ]);
    expect(summary[2]?.[1]).toMatchObject({ citations: ["kb-104"] });
  });

  it("exchanges strict JSON: system prompt, query, then action/observation pairs", async () => {
    const { planner, client } = createScriptedPlanner(triageSpec, happyScript);
    await planner.run("I was charged twice", { contextMeta: { locale: "en-GB" } });
    const last = client.calls[3]?.messages ?? [];
    expect(last.map((message) => message.role)).toEqual([
      "system",
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
    ]);
    for (const message of last.slice(1)) expect(() => JSON.parse(message.content) as unknown).not.toThrow();
    expect(JSON.parse(last[1]?.content ?? "")).toEqual({
      query: "I was charged twice",
      context: { locale: "en-GB" },
    });
    expect(JSON.parse(last[2]?.content ?? "")).toEqual(happyScript[0]);
    expect(JSON.parse(last[3]?.content ?? "")).toEqual({
      observation: { topic: "billing", urgency: "normal", query: "I was charged twice" },
    });
    const system = last[0]?.content ?? "";
    expect(system).toContain('"next_node": "final_response"');
    expect(system).toMatch(/1\) triage — Classify a support question/);
    expect(system).toContain("Preferred order (if applicable): triage → retrieve_docs → summarize.");
    expect(system).toContain("Order: triage before retrieve_docs; retrieve_docs before summarize.");
    expect(system.endsWith("Always triage first, then retrieve, then summarize.")).toBe(true);
    expect(client.calls[0]?.responseFormat).toBe("json_object");
  });

  it("passes an up-to-date planner view on every call", async () => {
    const { planner, client } = createScriptedPlanner(triageSpec, happyScript);
    await planner.run("I was charged twice");
    const views = client.calls.map((entry) => entry.plannerView as PlannerView);
    expect(views.map((view) => view.iteration)).toEqual([0, 1, 2, 3]);
    expect(views[0]?.tools.map((tool) => tool.name)).toEqual(["triage", "retrieve_docs", "summarize"]);
    expect(views[0]?.hints.ordering_hints).toEqual(["triage", "retrieve_docs", "summarize"]);
    expect(views[0]?.edges).toHaveLength(2);
    const lastView = views[3];
    expect(lastView?.steps.map((step) => [step.next_node, step.source])).toEqual([
      ["triage", "llm"],
      ["retrieve_docs", "llm"],
      ["summarize", "llm"],
    ]);
    expect(lastView).toMatchObject({
      query: "I was charged twice",
      tasksEnabled: false,
      maxIters: 8,
      todos: { enabled: false, items: [] },
    });
  });

  it("gives the same trajectory for the same script, every time", async () => {
    const runOnce = async () => {
      const { planner, client } = createScriptedPlanner(triageSpec, happyScript);
      const log = createEventLog();
      const result = await planner.run("I was charged twice", { onEvent: log.onEvent, runId: "fixed" });
      return { result, events: log.events, prompts: client.calls.map((entry) => entry.messages) };
    };
    const first = await runOnce();
    const second = await runOnce();
    expect(second.result).toEqual(first.result);
    expect(second.events).toEqual(first.events);
    expect(second.prompts).toEqual(first.prompts);
  });

  it("runs several queries on one planner concurrently without sharing state", async () => {
    const reply = (entry: ScriptedCall) => {
      const query = (JSON.parse(entry.messages[1]?.content ?? "{}") as { query: string }).query;
      return entry.messages.length > 2 ? answer(`done: ${query}`) : call("triage", { text: query });
    };
    const shared = new ScriptedClient([reply, reply, reply, reply]);
    const time = createVirtualTime();
    const planner = ReactPlanner.fromSpec(triageSpec, {
      llm: shared,
      clock: time.clock,
      sleep: time.sleep,
      random: () => 0.5,
    });
    const [a, b] = await Promise.all([planner.run("alpha"), planner.run("beta")]);
    expect(finished(a).payload.answer).toBe("done: alpha");
    expect(finished(b).payload.answer).toBe("done: beta");
    expect(finished(a).metadata.steps).toBe(1);
    expect(finished(b).metadata.steps).toBe(1);
  });
});

describe("ReactPlanner: validation and repair", () => {
  it("self-repairs invalid args with a short machine message", async () => {
    const { planner, client } = createScriptedPlanner(triageSpec, [
      call("triage", { text: "charged twice" }),
      call("retrieve_docs", { topic: "weather", query: "charged twice" }),
      call("retrieve_docs", { topic: "billing", query: "charged twice" }),
      answer("ok"),
    ]);
    const log = createEventLog();
    const result = finished(await planner.run("charged twice", { onEvent: log.onEvent }));
    expect(result.reason).toBe("answer_complete");
    expect(client.calls.map((entry) => entry.purpose)).toEqual(["plan", "plan", "repair", "plan"]);
    const repair = client.calls[2]?.messages.at(-1)?.content ?? "";
    expect(repair).toMatch(/args did not validate for retrieve_docs: topic/);
    expect(repair).toMatch(/Return corrected JSON/);
    expect(client.calls[2]?.messages.at(-2)).toEqual({
      role: "assistant",
      content: JSON.stringify(call("retrieve_docs", { topic: "weather", query: "charged twice" })),
    });
    expect(log.ofType("repair_attempt").map((event) => event.data)).toEqual([
      expect.objectContaining({
        kind: "args",
        attempt: 1,
        error_code: "invalid_args",
        node: "retrieve_docs",
      }),
    ]);
    expect(log.ofType("tool_start").map((event) => event.data.tool)).toEqual(["triage", "retrieve_docs"]);
  });

  it("asks only for missing fields (arg-fill) and merges them", async () => {
    const { planner, client } = createScriptedPlanner(triageSpec, [
      call("triage", { text: "charged twice" }),
      call("retrieve_docs", { topic: "billing" }),
      { query: "charged twice" },
      answer("ok"),
    ]);
    const log = createEventLog();
    await planner.run("charged twice", { onEvent: log.onEvent });
    expect(client.calls[2]?.purpose).toBe("arg_fill");
    expect(client.calls[2]?.messages.at(-1)?.content).toMatch(/missing required args: query/);
    expect(log.ofType("tool_start")[1]?.data.args).toEqual({
      topic: "billing",
      query: "charged twice",
      k: 3,
    });
    expect(log.ofType("repair_attempt")[0]?.data.kind).toBe("arg_fill");
  });

  it("repairs unparseable output and salvages prose-wrapped actions", async () => {
    const { planner, client } = createScriptedPlanner(triageSpec, [
      "I think I should triage this first.",
      'Sure! ```json\n{"next_node": "triage", "args": {"text": "x"}}\n```',
      "{'next_node': 'final_response', 'args': {'answer': 'Fine', 'requires_followup': False}}",
    ]);
    const log = createEventLog();
    const result = finished(await planner.run("x", { onEvent: log.onEvent }));
    expect(result.payload.answer).toBe("Fine");
    expect(client.calls.map((entry) => entry.purpose)).toEqual(["plan", "repair", "plan"]);
    expect(log.ofType("repair_attempt")[0]?.data).toMatchObject({
      kind: "parse",
      error_code: "unparseable_action",
    });
  });

  it("repairs a reply stream cut off mid-answer (stream_interrupted)", async () => {
    const partial = '{"next_node": "final_response", "args": {"answer": "Half an ans';
    const { planner, client } = createScriptedPlanner(triageSpec, [
      new LlmError("stream_interrupted", "The stream broke.", { details: { partialContent: partial } }),
      answer("A whole answer"),
    ]);
    const log = createEventLog();
    const result = finished(await planner.run("x", { onEvent: log.onEvent }));
    expect(result.payload.answer).toBe("A whole answer");
    expect(client.calls[1]?.purpose).toBe("repair");
    expect(client.calls[1]?.messages.at(-2)).toEqual({ role: "assistant", content: partial });
    expect(client.calls[1]?.messages.at(-1)?.content).toMatch(/cut off after 63 characters/);
    expect(log.ofType("repair_attempt")[0]?.data).toMatchObject({
      kind: "parse",
      error_code: "stream_interrupted",
    });
  });

  it("fails the run with the client's error when the LLM call fails for good", async () => {
    const { planner } = createScriptedPlanner(triageSpec, [
      new LlmError("rate_limited", "Too many requests."),
    ]);
    const log = createEventLog();
    await expect(planner.run("x", { onEvent: log.onEvent })).rejects.toMatchObject({ code: "rate_limited" });
    expect(log.events.at(-1)).toMatchObject({
      type: "run_failed",
      data: { error: { code: "rate_limited", message: "Too many requests." } },
    });
  });

  it("never runs an unknown tool and lists the catalog to the LLM", async () => {
    const { planner, client } = createScriptedPlanner(triageSpec, [
      call("web_search", { q: "x" }),
      answer("no tools needed"),
    ]);
    const log = createEventLog();
    await planner.run("x", { onEvent: log.onEvent });
    const message = JSON.parse(client.calls[1]?.messages.at(-1)?.content ?? "{}") as {
      error: { code: string; available_tools: string[] };
    };
    expect(message.error.code).toBe("unknown_tool");
    expect(message.error.available_tools).toEqual(["triage", "retrieve_docs", "summarize"]);
    expect(log.ofType("tool_start")).toEqual([]);
    expect(log.ofType("repair_attempt")[0]?.data).toMatchObject({ kind: "unknown_tool", node: "web_search" });
  });

  it("records a refused action as a failure step once repairs run out, then re-plans", async () => {
    const spec = { ...triageSpec, planner: { ...triageSpec.planner, repairAttempts: 1 } };
    const { planner, client } = createScriptedPlanner(spec, [
      call("web_search"),
      call("web_search"),
      call("triage", { text: "x" }),
      answer("done"),
    ]);
    const result = finished(await planner.run("x"));
    expect(result.reason).toBe("answer_complete");
    const view = client.calls[2]?.plannerView as PlannerView;
    expect(view.steps[0]).toMatchObject({ next_node: "web_search", failure: { error_code: "unknown_tool" } });
    expect(client.calls[2]?.messages.at(-1)?.content).toContain('"failure"');
  });

  it("forces a finish with requires_followup after maxConsecutiveArgFailures", async () => {
    const bad = call("retrieve_docs", { topic: "nope" });
    const { planner, client } = createScriptedPlanner(triageSpec, [bad, bad, bad, bad]);
    const result = finished(await planner.run("x"));
    expect(result.reason).toBe("no_path");
    expect(result.payload.requires_followup).toBe(true);
    expect(result.payload.answer).toMatch(/3 consecutive attempts \(retrieve_docs\)/);
    expect(client.calls).toHaveLength(3);
  });

  it("asks once for a missing final answer, then keeps what the run found", async () => {
    const { planner, client } = createScriptedPlanner(triageSpec, [
      call("triage", { text: "x" }),
      { next_node: "final_response", args: {} },
      answer("Here it is"),
    ]);
    const result = finished(await planner.run("x"));
    expect(result.payload.answer).toBe("Here it is");
    expect(client.calls[2]?.messages.at(-1)?.content).toMatch(/final_response needs args.answer/);
    const stubborn = createScriptedPlanner(triageSpec, [
      call("triage", { text: "x" }),
      { next_node: "final_response", args: {} },
      { next_node: "final_response" },
      '{"next_node": null}',
    ]);
    const fallback = finished(await stubborn.planner.run("x"));
    expect(fallback.reason).toBe("answer_complete");
    expect(fallback.payload.requires_followup).toBe(true);
    expect(fallback.payload.answer).toMatch(/Latest result: .*billing/);
  });

  it("validates tool output against the out schema, without retrying", async () => {
    let calls = 0;
    const broken = defineTool({
      name: "broken",
      desc: "Returns the wrong shape",
      args: z.object({}),
      out: z.object({ value: z.number() }),
      run: () => {
        calls += 1;
        return { value: "not a number" } as unknown as { value: number };
      },
    });
    const client = new ScriptedClient([call("broken"), answer("gave up")]);
    const planner = new ReactPlanner({
      llm: client,
      catalog: buildCatalog({ tools: [broken] }),
      sleep: createVirtualTime().sleep,
    });
    await planner.run("x");
    expect(calls).toBe(1);
    const failure = JSON.parse(client.calls[1]?.messages.at(-1)?.content ?? "{}") as {
      failure: { error_code: string };
    };
    expect(failure.failure.error_code).toBe("invalid_output");
  });
});

describe("ReactPlanner: construction", () => {
  it("refuses invalid options with a clear error", () => {
    const make = () =>
      new ReactPlanner({ llm: new ScriptedClient(), catalog: buildCatalog(), options: { maxIters: 0 } });
    expect(make).toThrow(PlannerError);
    expect(make).toThrow(/maxIters/);
  });

  it("refuses to resume a token it never issued, saying so", async () => {
    const planner = new ReactPlanner({ llm: new ScriptedClient(), catalog: buildCatalog() });
    await expect(planner.resume("token", { decision: "approve" })).rejects.toMatchObject({
      code: "unknown_resume_token",
      message: expect.stringContaining("is unknown") as unknown,
    });
  });

  it("streams the final answer and reasoning through scripted chunks", async () => {
    const { planner } = createScriptedPlanner(triageSpec, [
      scriptedReply(answer('Hello "streaming" world ✓'), { chunkSize: 4, reasoning: "Thinking about it" }),
    ]);
    const log = createEventLog();
    await planner.run("x", { onEvent: log.onEvent });
    const chunks = log.ofType("llm_stream_chunk").map((event) => event.data);
    const answerChunks = chunks.filter((chunk) => chunk.channel === "answer");
    expect(
      answerChunks
        .filter((chunk) => !chunk.done)
        .map((chunk) => chunk.text)
        .join(""),
    ).toBe('Hello "streaming" world ✓');
    expect(answerChunks.filter((chunk) => !chunk.done).length).toBeGreaterThan(1);
    expect(answerChunks.at(-1)).toMatchObject({ done: true, text: "" });
    const thinking = chunks.filter((chunk) => chunk.channel === "thinking");
    expect(thinking.map((chunk) => chunk.text).join("")).toBe("Thinking about it");
    expect(thinking.at(-1)?.done).toBe(true);
    expect(new Set(chunks.map((chunk) => chunk.action_seq))).toEqual(new Set([0]));
  });
});
