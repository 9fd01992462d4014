import { createRequire } from "node:module";
import type * as SdkTraceBase from "@opentelemetry/sdk-trace-base";
import type { RunEvent, RunRecord } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import type { ObservedRun } from "../runs/run-observer.js";
import { ForcedIdGenerator } from "./forced-id-generator.js";
import { RunTracer } from "./run-tracer.js";

const load = createRequire(import.meta.url);
const sdk = load("@opentelemetry/sdk-trace-base") as typeof SdkTraceBase;

const RUN_ID = "run_guarded";
const record = {
  id: RUN_ID,
  agentId: "support",
  agentVersion: 1,
  status: "running",
  query: "q",
} as RunRecord;
const observed: ObservedRun = { record, redact: (value) => value };

let seq = 0;
function event(type: string, data: Record<string, unknown>, step = 0): RunEvent {
  seq += 1;
  return { runId: RUN_ID, seq, ts: 1_000 + seq, step, type, data } as unknown as RunEvent;
}

function createTracer() {
  const memory = new sdk.InMemorySpanExporter();
  const ids = new ForcedIdGenerator(new sdk.RandomIdGenerator());
  const provider = new sdk.BasicTracerProvider({
    idGenerator: ids,
    spanProcessors: [new sdk.SimpleSpanProcessor(memory)],
  });
  const tracer = new RunTracer({ tracer: provider.getTracer("waddle"), ids, captureContent: true });
  return { tracer, memory };
}

describe("guard verdicts in traces", () => {
  it("puts each verdict on the run's span, and a tool result's also on its tool call's span, counts only", () => {
    const { tracer, memory } = createTracer();
    const events = [
      event("run_started", { query: "q", llm: { provider: "offline", model: "offline" } }),
      event("tool_start", { tool: "lookup", callId: "call_1", attempt: 1, args: {} }, 1),
      event(
        "guard_verdict",
        {
          guard: "no-pii",
          on: "tool_result",
          verdict: "fail",
          action: "redact",
          findings: [
            { kind: "email", count: 1 },
            { kind: "card", count: 2 },
          ],
          check: "pii",
          tool: "lookup",
          step: 1,
          message: "found ana@example.com",
          durationMs: 0.4,
        },
        1,
      ),
      event("tool_end", { tool: "lookup", callId: "call_1", observation: { email: "[email]" } }, 1),
      event("guard_checking", { on: "output", guards: ["answer-length"] }, 2),
      event(
        "guard_verdict",
        {
          guard: "answer-length",
          on: "output",
          verdict: "pass",
          action: "none",
          findings: [],
          check: "max_length",
        },
        2,
      ),
      event("run_finished", { reason: "answer_complete", payload: { answer: "done" }, metadata: {} }, 2),
    ];
    for (const each of events) tracer.onEvent(each, observed);

    const spans = memory.getFinishedSpans();
    const root = spans.find((span) => span.name === "invoke_agent support")!;
    const tool = spans.find((span) => span.name === "execute_tool lookup")!;
    const redacted = {
      "waddle.guard.name": "no-pii",
      "waddle.guard.on": "tool_result",
      "waddle.guard.check": "pii",
      "waddle.guard.verdict": "fail",
      "waddle.guard.action": "redact",
      "waddle.guard.findings": ["email:1", "card:2"],
      "gen_ai.tool.name": "lookup",
      "waddle.guard.duration_ms": 0.4,
    };
    expect(root.events.map((each) => [each.name, each.attributes])).toEqual([
      ["guard_verdict", redacted],
      ["guard_checking", { "waddle.guard.on": "output", "waddle.guard.names": ["answer-length"] }],
      [
        "guard_verdict",
        {
          "waddle.guard.name": "answer-length",
          "waddle.guard.on": "output",
          "waddle.guard.check": "max_length",
          "waddle.guard.verdict": "pass",
          "waddle.guard.action": "none",
          "waddle.guard.findings": [],
        },
      ],
    ]);
    expect(tool.events.map((each) => [each.name, each.attributes])).toEqual([["guard_verdict", redacted]]);
    // A guard's message may quote what it found: it never reaches a span.
    expect(JSON.stringify(spans.map((span) => span.events))).not.toContain("ana@example.com");
  });

  it("leaves a tool result's verdict on the run's span alone when two calls of that tool are open", () => {
    const { tracer, memory } = createTracer();
    const verdict = {
      guard: "g",
      on: "tool_result",
      verdict: "pass",
      action: "none",
      findings: [],
      check: "pii",
      tool: "lookup",
    };
    for (const each of [
      event("run_started", { query: "q", llm: { provider: "offline", model: "offline" } }),
      event("tool_start", { tool: "lookup", callId: "a", attempt: 1, args: {} }, 1),
      event("tool_start", { tool: "lookup", callId: "b", attempt: 1, args: {} }, 1),
      event("guard_verdict", verdict, 1),
      event("guard_verdict", { ...verdict, callId: "b" }, 1),
      event("tool_end", { tool: "lookup", callId: "a", observation: {} }, 1),
      event("tool_end", { tool: "lookup", callId: "b", observation: {} }, 1),
      event("run_finished", { reason: "answer_complete", payload: { answer: "done" }, metadata: {} }, 2),
    ])
      tracer.onEvent(each, observed);
    const tools = memory.getFinishedSpans().filter((span) => span.name === "execute_tool lookup");
    const callIdOf = (span: (typeof tools)[number]) => span.attributes["gen_ai.tool.call.id"];
    expect(tools.map((span) => [callIdOf(span), span.events.length])).toEqual([
      ["a", 0],
      ["b", 1],
    ]);
  });
});
