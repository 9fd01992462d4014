import type { AgentSpec, PlannerFinishResult, ToolSpecInput } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { OfflineModel } from "../llm/offline/offline-model.js";
import { ReactPlanner } from "./react-planner.js";
import { loadExampleAgent } from "../testing/load-example-agent.js";
import {
  answer,
  call,
  createEventLog,
  createScriptedPlanner,
  createVirtualTime,
} from "../testing/run-harness.js";

const pipeline = loadExampleAgent("document-pipeline");
const query = "Summarize the contracts in the Q3 document folder";
const DETECTION = [
  "auto_seq_detected_unique",
  "auto_seq_detected_ambiguous",
  "auto_seq_detected_none",
  "auto_seq_skipped",
];

function finished(result: Awaited<ReturnType<ReactPlanner["run"]>>): PlannerFinishResult {
  if (result.kind !== "finish") throw new Error(`expected a finish, got a pause (${result.reason})`);
  return result;
}

function withPlanner(spec: AgentSpec, autoSeq: Partial<AgentSpec["planner"]["autoSeq"]>): AgentSpec {
  return { ...spec, planner: { ...spec.planner, autoSeq: { ...spec.planner.autoSeq, ...autoSeq } } };
}

const mock = (name: string, extra: Partial<ToolSpecInput> = {}): ToolSpecInput => ({
  name,
  desc: name,
  sideEffects: "read",
  autoSeq: true,
  autoSeqExecute: true,
  argsSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
  outSchema: { type: "object" },
  impl: { kind: "mock", output: { id: "{{args.id}}", by: name } },
  ...extra,
});

/** A small agent: `start` returns {id}; every other tool accepts {id}. */
function idSpec(tools: ToolSpecInput[], planner: Record<string, unknown> = {}): AgentSpec {
  return {
    ...pipeline,
    id: "ids",
    tools: [mock("start", { autoSeq: false }), ...tools] as AgentSpec["tools"],
    edges: [],
    hints: { ...pipeline.hints, ordering_hints: [] },
    planner: {
      ...pipeline.planner,
      ...planner,
      autoSeq: { enabled: true, execute: true, readOnlyOnly: true },
    },
  };
}

describe("auto-seq in the loop: the document pipeline example", () => {
  it("finishes with 2 LLM calls instead of 6, saving 4", async () => {
    const { planner, client } = createScriptedPlanner(pipeline, [
      call("triage_query", { text: query }),
      answer("Three contracts; the earliest renewal is 2027-01-31."),
    ]);
    const log = createEventLog();
    const result = finished(await planner.run(query, { onEvent: log.onEvent }));
    expect(result.reason).toBe("answer_complete");
    expect(client.calls).toHaveLength(2);
    expect(result.metadata).toMatchObject({ llmCalls: 2, autoSeqSavedCalls: 4, steps: 5 });
    expect(log.ofType("tool_start").map((event) => [event.data.tool, event.data.source])).toEqual([
      ["triage_query", "llm"],
      ["initialize_document_workflow", "auto_seq"],
      ["parse_documents", "auto_seq"],
      ["extract_metadata", "auto_seq"],
      ["generate_summary", "auto_seq"],
    ]);
    expect(log.ofType("auto_seq_executed").map((event) => event.data)).toEqual([
      { tool_name: "initialize_document_workflow", prev_step_next_node: "triage_query" },
      { tool_name: "parse_documents", prev_step_next_node: "initialize_document_workflow" },
      { tool_name: "extract_metadata", prev_step_next_node: "parse_documents" },
      { tool_name: "generate_summary", prev_step_next_node: "extract_metadata" },
    ]);
    // Exactly one detection event per iteration (six iterations), the same action events as the LLM's.
    const detections = log.events.filter((event) => DETECTION.includes(event.type));
    expect(detections.map((event) => event.type)).toEqual([
      "auto_seq_skipped",
      ...Array<string>(4).fill("auto_seq_detected_unique"),
      "auto_seq_detected_none",
    ]);
    expect(log.ofType("auto_seq_skipped")[0]?.data).toMatchObject({ reason: "no_steps" });
    expect(log.ofType("auto_seq_detected_unique")[0]?.data).toMatchObject({
      tool_name: "initialize_document_workflow",
      payload_type: "RouteDecision",
      payload_keys_count: 4,
      payload_fingerprint: expect.stringMatching(/^[0-9a-f]{16}$/) as unknown,
    });
    expect(JSON.stringify(detections)).not.toContain("contract-a.pdf");
    expect(log.ofType("action").map((event) => event.data.source)).toEqual([
      "llm",
      "auto_seq",
      "auto_seq",
      "auto_seq",
      "auto_seq",
      "llm",
    ]);
    expect(log.ofType("step_start").map((event) => event.data.source)).toEqual([
      "llm",
      "auto_seq",
      "auto_seq",
      "auto_seq",
      "auto_seq",
      "llm",
    ]);
  });

  it("without execution it only detects: six LLM calls, nothing saved", async () => {
    const spec = withPlanner(pipeline, { execute: false });
    const { planner, client } = createScriptedPlanner(spec, [
      call("triage_query", { text: query }),
      call("initialize_document_workflow", {
        query: { text: query },
        route: "documents",
        confidence: 0.9,
      }),
      (seen) => {
        const view = seen.plannerView as { steps: { observation: Record<string, unknown> }[] };
        return call("parse_documents", view.steps.at(-1)!.observation);
      },
      (seen) => {
        const view = seen.plannerView as { steps: { observation: Record<string, unknown> }[] };
        return call("extract_metadata", view.steps.at(-1)!.observation);
      },
      (seen) => {
        const view = seen.plannerView as { steps: { observation: Record<string, unknown> }[] };
        return call("generate_summary", view.steps.at(-1)!.observation);
      },
      answer("done"),
    ]);
    const log = createEventLog();
    const result = finished(await planner.run(query, { onEvent: log.onEvent }));
    expect(client.calls).toHaveLength(6);
    expect(result.metadata.autoSeqSavedCalls).toBe(0);
    expect(log.ofType("auto_seq_detected_unique")).toHaveLength(4);
    expect(log.ofType("auto_seq_executed")).toEqual([]);
  });

  it("runs the pipeline on the offline model with 2 LLM calls", async () => {
    const planner = ReactPlanner.fromSpec(pipeline, {
      llm: new OfflineModel({ chunkDelayMs: 0 }),
      sleep: createVirtualTime().sleep,
    });
    const result = finished(await planner.run(query));
    expect(result.reason).toBe("answer_complete");
    expect(result.metadata).toMatchObject({ llmCalls: 2, autoSeqSavedCalls: 4 });
  });

  it("emits no auto-seq event at all while autoSeq is disabled", async () => {
    const spec = withPlanner(pipeline, { enabled: false });
    const { planner } = createScriptedPlanner(spec, [call("triage_query", { text: query }), answer("ok")]);
    const log = createEventLog();
    await planner.run(query, { onEvent: log.onEvent });
    expect(log.events.filter((event) => DETECTION.includes(event.type))).toEqual([]);
  });
});

describe("auto-seq in the loop: outcomes, gates and skips", () => {
  it("ambiguous: two tools take the payload, so the LLM chooses", async () => {
    const spec = idSpec([mock("left"), mock("right")]);
    const { planner, client } = createScriptedPlanner(spec, [call("start", { id: "7" }), answer("ok")]);
    const log = createEventLog();
    await planner.run("x", { onEvent: log.onEvent });
    expect(client.calls).toHaveLength(2);
    expect(log.ofType("auto_seq_detected_ambiguous")[0]?.data).toMatchObject({
      candidates: ["left", "right"],
      candidate_count: 2,
      prev_step_next_node: "start",
    });
  });

  it("edges restrict eligibility: a target is only a candidate right after its source", async () => {
    const spec = {
      ...idSpec([mock("left"), mock("right")]),
      edges: [{ id: "e1", kind: "auto_seq" as const, source: "start", target: "right" }],
    };
    const { planner } = createScriptedPlanner(spec, [call("start", { id: "7" }), answer("ok")]);
    const log = createEventLog();
    const result = finished(await planner.run("x", { onEvent: log.onEvent }));
    // left has no incoming edge and stays eligible, right follows start: still two. Give left an edge too.
    expect(log.ofType("auto_seq_detected_ambiguous")).toHaveLength(1);
    expect(result.metadata.autoSeqSavedCalls).toBe(0);
    const restricted = {
      ...spec,
      edges: [...spec.edges, { id: "e2", kind: "auto_seq" as const, source: "right", target: "left" }],
    };
    const second = createScriptedPlanner(restricted, [call("start", { id: "7" }), answer("ok")]);
    const log2 = createEventLog();
    const run = finished(await second.planner.run("x", { onEvent: log2.onEvent }));
    expect(log2.ofType("tool_start").map((event) => event.data.tool)).toEqual(["start", "right", "left"]);
    expect(run.metadata.autoSeqSavedCalls).toBe(2);
  });

  it("dual gate: the tool's autoSeqExecute is needed as well as the planner's execute", async () => {
    const spec = idSpec([mock("only", { autoSeqExecute: false })]);
    const { planner, client } = createScriptedPlanner(spec, [call("start", { id: "7" }), answer("ok")]);
    const log = createEventLog();
    await planner.run("x", { onEvent: log.onEvent });
    expect(log.ofType("auto_seq_detected_unique")[0]?.data.tool_name).toBe("only");
    expect(log.ofType("auto_seq_executed")).toEqual([]);
    expect(client.calls).toHaveLength(2);
  });

  it("never auto-executes a disallowed or approval-gated tool, and side effects gate detection", async () => {
    for (const variant of [
      { tools: [mock("only")], hints: { disallow_nodes: ["only"] } },
      { tools: [mock("only", { requiresApproval: true })], hints: {} },
      { tools: [mock("only", { sideEffects: "write" })], hints: {}, approval: ["write"] },
    ]) {
      const base = idSpec(variant.tools, variant.approval ? { approvalSideEffects: variant.approval } : {});
      const spec = { ...base, hints: { ...base.hints, ...variant.hints } };
      const { planner } = createScriptedPlanner(spec, [call("start", { id: "7" }), answer("ok")]);
      const log = createEventLog();
      finished(await planner.run("x", { onEvent: log.onEvent }));
      expect(log.ofType("tool_start").map((event) => event.data.tool)).toEqual(["start"]);
      expect(log.ofType("auto_seq_executed")).toEqual([]);
    }
    // readOnlyOnly keeps a write tool out of detection altogether.
    const writeOnly = idSpec([mock("only", { sideEffects: "write" })]);
    const { planner } = createScriptedPlanner(writeOnly, [call("start", { id: "7" }), answer("ok")]);
    const log = createEventLog();
    await planner.run("x", { onEvent: log.onEvent });
    expect(log.ofType("auto_seq_detected_none")).toHaveLength(1);
  });

  it("skips after a parallel step and after a failed or unstructured one", async () => {
    const spec = idSpec([
      mock("left"),
      mock("text", {
        outSchema: { type: "string" },
        autoSeq: false,
        impl: { kind: "mock", output: "plain" },
      }),
    ]);
    const { planner } = createScriptedPlanner(spec, [
      {
        next_node: "parallel",
        args: {
          steps: [
            { node: "start", args: { id: "1" } },
            { node: "start", args: { id: "2" } },
          ],
        },
      },
      call("text", { id: "3" }),
      call("missing_tool", {}),
      call("missing_tool", {}),
      call("missing_tool", {}),
      answer("ok"),
    ]);
    const log = createEventLog();
    await planner.run("x", { onEvent: log.onEvent });
    const reasons = log.ofType("auto_seq_skipped").map((event) => event.data.reason);
    expect(reasons).toEqual([
      "no_steps",
      "previous_step_parallel",
      "non_structured_observation",
      "non_structured_observation",
    ]);
  });

  it("looks through plan updates: write_todos' acknowledgement is no payload for a tool", async () => {
    const anything = mock("anything", {
      argsSchema: { type: "object", properties: {} },
      autoSeqExecute: true,
    });
    const base = idSpec([anything], { todos: { enabled: true } });
    const { planner } = createScriptedPlanner(base, [
      call("write_todos", { todos: [{ id: "a", content: "Start", status: "in_progress" }] }),
      answer("ok"),
    ]);
    const log = createEventLog();
    finished(await planner.run("x", { onEvent: log.onEvent }));
    expect(log.ofType("tool_start")).toEqual([]);
    expect(log.ofType("auto_seq_skipped").map((event) => event.data.reason)).toEqual([
      "no_steps",
      "no_steps",
    ]);
  });

  it("never auto-runs a tool twice in a row on a payload of the same fingerprint", async () => {
    // `only` takes {id} and returns {id, by}: it accepts its own output, which looped until maxIters.
    const spec = idSpec([mock("only")]);
    const { planner, client } = createScriptedPlanner(spec, [call("start", { id: "7" }), answer("ok")]);
    const log = createEventLog();
    const result = finished(await planner.run("x", { onEvent: log.onEvent }));
    expect(log.ofType("tool_start").map((event) => event.data.tool)).toEqual(["start", "only"]);
    expect(log.ofType("auto_seq_skipped").map((event) => event.data.reason)).toEqual([
      "no_steps",
      "repeated_fingerprint",
    ]);
    expect(result.metadata.autoSeqSavedCalls).toBe(1);
    expect(client.calls).toHaveLength(2);
  });

  it("lets the model decide after a resumed call (after_queued_action)", async () => {
    const spec = idSpec([mock("send", { requiresApproval: true, autoSeq: false }), mock("only")]);
    const { planner } = createScriptedPlanner(spec, [call("send", { id: "1" }), answer("ok")]);
    const first = await planner.run("x");
    if (first.kind !== "pause") throw new Error("expected a pause");
    const log = createEventLog();
    finished(await planner.resume(first.resumeToken, { decision: "approve", onEvent: log.onEvent }));
    // The resumed send is the run's first step (no_steps before it); its {id} would feed `only`.
    expect(log.ofType("auto_seq_skipped").map((event) => event.data.reason)).toEqual([
      "no_steps",
      "after_queued_action",
    ]);
    expect(log.ofType("tool_start").map((event) => event.data.tool)).toEqual(["send"]);
  });

  it("skips with pending_actions_present when a resumed call waits in the queue", async () => {
    const spec = idSpec([mock("send", { requiresApproval: true, autoSeq: false })]);
    const { planner } = createScriptedPlanner(spec, [
      call("start", { id: "1" }),
      call("send", { id: "1" }),
      answer("ok"),
    ]);
    const first = await planner.run("x");
    if (first.kind !== "pause") throw new Error("expected a pause");
    const log = createEventLog();
    finished(await planner.resume(first.resumeToken, { decision: "approve", onEvent: log.onEvent }));
    expect(log.ofType("auto_seq_skipped")[0]?.data.reason).toBe("pending_actions_present");
  });
});
