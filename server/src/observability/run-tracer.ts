import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type Tracer,
} from "@opentelemetry/api";
import { TERMINAL_EVENT_TYPES, type RunEvent, type RunEventOf } from "@waddle/protocol";
import type { ObservedRun, RunObserver } from "../runs/run-observer.js";
import type { ForcedIdGenerator } from "./forced-id-generator.js";
import { recordGuardEvent } from "./guard-span-events.js";
import {
  createSpanId,
  createTraceId,
  formatTraceparent,
  getIncomingTraceContext,
  parseTraceparent,
} from "./trace-context.js";
import { TracedAgents, type DescribeAgent } from "./traced-agents.js";

export interface RunTracerOptions {
  tracer: Tracer;
  ids: ForcedIdGenerator;
  /** Queries, replies, tool args and results on spans (redacted): `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT`. */
  captureContent: boolean;
  /** Reads an agent version (cached here per version); undefined when it is gone. */
  describeAgent?: DescribeAgent;
}

/** One run's open spans in this process: the segment (`invoke_agent`), its plans and its tool calls. */
interface RunSpans {
  agentKey: string;
  segment: Span;
  segmentContext: Context;
  plans: Map<string, { span: Span; context: Context }>;
  tools: Map<string, { span: Span; tool: string }>;
}

const MAX_CONTENT_CHARS = 8_000;

/**
 * Builds OpenTelemetry spans from a run's events (GenAI semantic conventions), so that the planner knows
 * nothing of tracing. A run is `invoke_agent <agent>`; each stretch of it that one process executes is one
 * such span (the first with the ids its run keeps, a continuation after a pause or on another worker as
 * its child), so that nothing is held open while a run waits for a person. Each LLM call is `chat <model>`,
 * each tool call `execute_tool <tool>`, parallel branches sit under their `parallel` span.
 */
export class RunTracer implements RunObserver {
  private readonly runs = new Map<string, RunSpans>();
  private readonly agents: TracedAgents;

  constructor(private readonly options: RunTracerOptions) {
    this.agents = new TracedAgents({
      describe: options.describeAgent,
      // Spans still open get the name once it comes.
      onDescribed: (agentKey, agent) => {
        for (const spans of this.runs.values())
          if (spans.agentKey === agentKey) spans.segment.setAttribute("gen_ai.agent.name", agent.name);
      },
    });
  }

  /** The trace context a new run keeps: a child of the request's trace when it carried a `traceparent`. */
  createRunTrace(): { traceparent: string; parent?: string } {
    const incoming = getIncomingTraceContext();
    const parent = incoming ? parseTraceparent(incoming.traceparent) : undefined;
    const traceparent = formatTraceparent({
      traceId: parent?.traceId ?? createTraceId(),
      spanId: createSpanId(),
      flags: parent?.flags ?? 1,
    });
    return incoming && parent ? { traceparent, parent: incoming.traceparent } : { traceparent };
  }

  /** The `traceparent` an outgoing call of this tool call sends (its `execute_tool` span), when traced. */
  getToolTraceparent(runId: string, callId: string): string | undefined {
    const open = this.runs.get(runId)?.tools.get(callId);
    if (!open) return undefined;
    const spanContext = open.span.spanContext();
    return formatTraceparent({
      traceId: spanContext.traceId,
      spanId: spanContext.spanId,
      flags: spanContext.traceFlags,
    });
  }

  onEvent(event: RunEvent, run: ObservedRun): void {
    if (event.replayed === true || event.type === "llm_stream_chunk") return;
    const spans = this.runs.get(event.runId) ?? this.startSegment(event, run);
    switch (event.type) {
      case "run_started":
        spans.segment.setAttributes({
          "gen_ai.provider.name": event.data.llm.provider,
          "gen_ai.request.model": event.data.llm.model,
        });
        if (this.options.captureContent)
          spans.segment.setAttribute(
            "gen_ai.input.messages",
            toMessages("user", run.redact(event.data.query)),
          );
        break;
      case "llm_call":
        this.recordChat(spans, event);
        break;
      case "parallel_start":
        this.startPlan(spans, event);
        break;
      case "parallel_end":
        this.endPlan(spans, event);
        break;
      case "tool_start":
        this.startTool(spans, event, run);
        break;
      case "tool_end":
      case "tool_error":
        this.endTool(spans, event, run);
        break;
      case "tool_retry":
        spans.tools.get(event.data.callId)?.span.addEvent(
          "tool_retry",
          {
            "waddle.attempt": event.data.attempt,
            "error.type": event.data.error_code,
          },
          event.ts,
        );
        break;
      case "auto_seq_executed":
        spans.segment.addEvent("auto_seq_executed", { "gen_ai.tool.name": event.data.tool_name }, event.ts);
        break;
      case "repair_attempt":
        spans.segment.addEvent(
          "repair_attempt",
          {
            "waddle.repair.kind": event.data.kind,
            "waddle.attempt": event.data.attempt,
            "error.type": event.data.error_code,
          },
          event.ts,
        );
        break;
      case "guard_checking":
      case "guard_verdict":
        recordGuardEvent(event, spans.segment, spans.tools);
        break;
      case "action_salvaged":
        spans.segment.addEvent("action_salvaged", { "waddle.salvage.rule": event.data.rule }, event.ts);
        break;
      case "resumed":
        spans.segment.addEvent(
          "resumed",
          {
            "waddle.resume.decision": event.data.decision,
            ...(event.data.reason ? { "waddle.pause.reason": event.data.reason } : {}),
          },
          event.ts,
        );
        break;
      case "run_recovered":
        spans.segment.addEvent(
          "run_recovered",
          { "waddle.checkpoint.seq": event.data.checkpointSeq },
          event.ts,
        );
        break;
      case "pause":
        spans.segment.addEvent("pause", { "waddle.pause.reason": event.data.reason }, event.ts);
        this.endSegment(event.runId, { status: "paused", ts: event.ts });
        break;
      case "run_finished":
        spans.segment.setAttribute("waddle.finish.reason", event.data.reason);
        if (this.options.captureContent)
          spans.segment.setAttribute(
            "gen_ai.output.messages",
            toMessages("assistant", run.redact(event.data.payload)),
          );
        this.endSegment(event.runId, { status: "finished", ts: event.ts });
        break;
      default:
        if (TERMINAL_EVENT_TYPES.has(event.type)) {
          const error = event.type === "run_failed" ? event.data.error : { code: "interrupted", message: "" };
          spans.segment.setAttribute("error.type", error.code);
          spans.segment.setStatus({ code: SpanStatusCode.ERROR, message: run.redact(error.message) });
          this.endSegment(event.runId, {
            status: event.type === "run_failed" ? "failed" : "interrupted",
            ts: event.ts,
          });
        }
    }
  }

  onExecutionEnd(runId: string): void {
    this.endSegment(runId, { status: "stopped", ts: Date.now() });
  }

  /** Ends every open span (at shutdown), so that the exporter can still send them. */
  endAll(): void {
    for (const runId of [...this.runs.keys()]) this.endSegment(runId, { status: "stopped", ts: Date.now() });
  }

  private startSegment(event: RunEvent, run: ObservedRun): RunSpans {
    const { record } = run;
    const agentKey = TracedAgents.keyOf(record.agentId, record.agentVersion);
    const agent = this.agents.get(record.agentId, record.agentVersion);
    const stored = record.trace ? parseTraceparent(record.trace.traceparent) : undefined;
    const first = event.type === "run_started" && record.forkOf === undefined;
    const attributes: Attributes = {
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.id": record.agentId,
      "gen_ai.agent.name": agent?.name ?? record.agentId,
      "waddle.run.id": record.id,
      "waddle.agent.version": record.agentVersion,
      ...(record.sessionId ? { "gen_ai.conversation.id": record.sessionId } : {}),
      ...(record.kind === "task" ? { "waddle.run.kind": "task" } : {}),
      ...(first ? {} : { "waddle.run.continued": true }),
    };
    const name = `invoke_agent ${record.agentId}`;
    const options = { kind: SpanKind.INTERNAL, attributes, startTime: event.ts };
    let segment: Span;
    if (stored && first) {
      // The run's own span, with the ids its record keeps: a child of the caller's span, if any.
      const parent = record.trace?.parent ? parseTraceparent(record.trace.parent) : undefined;
      const parentContext = parent ? remoteContext(parent) : ROOT_CONTEXT;
      segment = this.options.ids.withIds({ traceId: stored.traceId, spanId: stored.spanId }, () =>
        this.options.tracer.startSpan(name, options, parentContext),
      );
    } else {
      const parentContext = stored ? remoteContext(stored) : ROOT_CONTEXT;
      segment = this.options.tracer.startSpan(name, options, parentContext);
    }
    const spans: RunSpans = {
      agentKey,
      segment,
      segmentContext: trace.setSpan(ROOT_CONTEXT, segment),
      plans: new Map(),
      tools: new Map(),
    };
    this.runs.set(record.id, spans);
    return spans;
  }

  private endSegment(runId: string, end: { status: string; ts: number }): void {
    const spans = this.runs.get(runId);
    if (!spans) return;
    this.runs.delete(runId);
    for (const { span } of spans.tools.values()) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: `run ${end.status} during the call` });
      span.end(end.ts);
    }
    for (const { span } of spans.plans.values()) span.end(end.ts);
    spans.segment.setAttribute("waddle.run.status", end.status);
    spans.segment.end(end.ts);
  }

  private recordChat(spans: RunSpans, event: RunEventOf<"llm_call">): void {
    const data = event.data;
    const parent = this.findToolParent(spans) ?? spans.segmentContext;
    const span = this.options.tracer.startSpan(
      `chat ${data.requestModel ?? data.model}`,
      {
        kind: SpanKind.CLIENT,
        startTime: Math.max(0, event.ts - data.latencyMs),
        attributes: {
          "gen_ai.operation.name": "chat",
          "gen_ai.provider.name": data.provider,
          "gen_ai.request.model": data.requestModel ?? data.model,
          "gen_ai.response.model": data.model,
          "gen_ai.usage.input_tokens": data.promptTokens,
          "gen_ai.usage.output_tokens": data.completionTokens,
          "waddle.llm.purpose": data.purpose,
          "waddle.llm.cost_usd": data.costUsd,
          ...(data.reasoningTokens > 0 ? { "waddle.usage.reasoning_tokens": data.reasoningTokens } : {}),
          ...(data.finishReason ? { "gen_ai.response.finish_reasons": [data.finishReason] } : {}),
          ...(data.offline ? { "waddle.llm.offline": true } : {}),
          ...(event.cached ? { "waddle.cached": true } : {}),
        },
      },
      parent,
    );
    span.end(event.ts);
  }

  /** A tool's own model calls (`reportUsage`) belong under it, when exactly one tool call is open. */
  private findToolParent(spans: RunSpans): Context | undefined {
    if (spans.tools.size !== 1) return undefined;
    const [open] = spans.tools.values();
    return open ? trace.setSpan(spans.segmentContext, open.span) : undefined;
  }

  private startPlan(spans: RunSpans, event: RunEventOf<"parallel_start">): void {
    const span = this.options.tracer.startSpan(
      "parallel",
      {
        startTime: event.ts,
        attributes: {
          "waddle.parallel.id": event.data.parallelId,
          "waddle.parallel.branches": event.data.steps.length,
          "waddle.parallel.max": event.data.maxParallel,
          ...(event.data.join ? { "waddle.parallel.join": event.data.join.node } : {}),
        },
      },
      spans.segmentContext,
    );
    spans.plans.set(event.data.parallelId, { span, context: trace.setSpan(spans.segmentContext, span) });
  }

  private endPlan(spans: RunSpans, event: RunEventOf<"parallel_end">): void {
    const plan = spans.plans.get(event.data.parallelId);
    if (!plan) return;
    spans.plans.delete(event.data.parallelId);
    plan.span.setAttributes({
      "waddle.parallel.succeeded": event.data.successCount,
      "waddle.parallel.failed": event.data.failureCount,
      "waddle.parallel.join_status": event.data.join.status,
    });
    if (event.data.join.status === "error")
      plan.span.setStatus({ code: SpanStatusCode.ERROR, message: event.data.join.message ?? "join failed" });
    plan.span.end(event.ts);
  }

  private startTool(spans: RunSpans, event: RunEventOf<"tool_start">, run: ObservedRun): void {
    const data = event.data;
    // Another attempt of the same call: the one before failed (its `tool_retry` said why).
    const before = spans.tools.get(data.callId);
    if (before) {
      before.span.setStatus({ code: SpanStatusCode.ERROR, message: "retried" });
      before.span.end(event.ts);
    }
    const parent =
      (data.parallelId ? spans.plans.get(data.parallelId)?.context : undefined) ?? spans.segmentContext;
    const span = this.options.tracer.startSpan(
      `execute_tool ${data.tool}`,
      {
        startTime: event.ts,
        attributes: {
          "gen_ai.operation.name": "execute_tool",
          "gen_ai.tool.name": data.tool,
          "gen_ai.tool.call.id": data.callId,
          "waddle.tool.attempt": data.attempt,
          ...(data.source ? { "waddle.action.source": data.source } : {}),
          ...(data.source === "auto_seq" ? { "waddle.auto_seq": true } : {}),
          ...(data.branch !== undefined ? { "waddle.parallel.branch": data.branch } : {}),
          ...(data.join ? { "waddle.parallel.join": true } : {}),
          ...this.agents.getToolAttributes(spans.agentKey, data.tool),
          ...(this.options.captureContent
            ? { "gen_ai.tool.call.arguments": toContent(run.redact(data.args)) }
            : {}),
        },
      },
      parent,
    );
    spans.tools.set(data.callId, { span, tool: data.tool });
  }

  private endTool(spans: RunSpans, event: RunEventOf<"tool_end" | "tool_error">, run: ObservedRun): void {
    const open = spans.tools.get(event.data.callId);
    if (!open) return;
    spans.tools.delete(event.data.callId);
    // The agent's description may have come while the call ran.
    open.span.setAttributes(this.agents.getToolAttributes(spans.agentKey, open.tool));
    if (event.type === "tool_error") {
      open.span.setAttribute("error.type", event.data.failure.error_code);
      open.span.setStatus({ code: SpanStatusCode.ERROR, message: run.redact(event.data.failure.message) });
    } else if (this.options.captureContent) {
      open.span.setAttribute("gen_ai.tool.call.result", toContent(run.redact(event.data.observation)));
    }
    open.span.end(event.ts);
  }
}

function remoteContext(parts: { traceId: string; spanId: string; flags: number }): Context {
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId: parts.traceId,
    spanId: parts.spanId,
    traceFlags: parts.flags,
    isRemote: true,
  });
}

function toContent(value: unknown): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? "");
  return text.length > MAX_CONTENT_CHARS
    ? `${text.slice(0, MAX_CONTENT_CHARS)}…[+${text.length - MAX_CONTENT_CHARS} chars]`
    : text;
}

/** GenAI message JSON: `[{role, parts: [{type: "text", content}]}]`. */
function toMessages(role: "user" | "assistant", value: unknown): string {
  return JSON.stringify([{ role, parts: [{ type: "text", content: toContent(value) }] }]);
}
