import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { RunEvent } from "@waddle/protocol";
import type { ObservedRun, RunObserver } from "../runs/run-observer.js";
import type { WaddleStore } from "../store/waddle-store.js";

/** What the gauges read at scrape time; each part is optional (a CLI has no sockets, one process no queue). */
export interface MetricsSources {
  store: WaddleStore;
  /** Runs executing in this process now. */
  activeRuns?: () => number;
  /** Queue mode: jobs waiting in BullMQ and the workers listening. */
  queueStats?: () => Promise<{ waiting: number; workers: number } | undefined>;
  /** Socket.io connections of this process. */
  liveSockets?: () => number;
  /** Spans tracing could not send (see `Tracing.droppedSpans`). */
  droppedSpans?: () => number;
}

/** Most runs a gauge counts from the store per scrape (a bound, not a limit anyone should meet). */
const COUNT_LIMIT = 1_000;

/**
 * The server's Prometheus metrics (`GET /metrics`): counters move with the events this process records,
 * gauges are read when scraped. Labels are agent ids, models, tool names and statuses only: never a query
 * or any other text a user wrote.
 */
export class ServerMetrics implements RunObserver {
  readonly registry = new Registry();
  private readonly runsStarted: Counter<"agent_id">;
  private readonly runsEnded: Counter<"agent_id" | "status">;
  private readonly runDuration: Histogram<"agent_id" | "status">;
  private readonly llmCalls: Counter<"agent_id" | "model" | "purpose">;
  private readonly llmTokens: Counter<"agent_id" | "model" | "type">;
  private readonly llmCost: Counter<"agent_id" | "model">;
  private readonly toolCalls: Counter<"agent_id" | "tool" | "outcome">;
  private readonly autoSeqSaved: Counter<"agent_id">;
  private readonly pauses: Counter<"agent_id" | "reason">;
  private readonly stuck: Counter<"agent_id" | "pattern" | "action">;
  private readonly guardVerdicts: Counter<"agent_id" | "on" | "check" | "verdict" | "action">;

  constructor(private readonly sources: MetricsSources) {
    const registers = [this.registry];
    this.runsStarted = new Counter({
      name: "waddle_runs_started_total",
      help: "Runs started (a run's first step), by agent.",
      labelNames: ["agent_id"],
      registers,
    });
    this.runsEnded = new Counter({
      name: "waddle_runs_ended_total",
      help: "Runs ended, by agent and status (finished, cancelled, failed, interrupted).",
      labelNames: ["agent_id", "status"],
      registers,
    });
    this.runDuration = new Histogram({
      name: "waddle_run_duration_seconds",
      help: "Time from a run's start to its end, waits at pauses included.",
      labelNames: ["agent_id", "status"],
      buckets: [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900, 3600],
      registers,
    });
    this.llmCalls = new Counter({
      name: "waddle_llm_calls_total",
      help: "LLM calls, by agent, model and purpose.",
      labelNames: ["agent_id", "model", "purpose"],
      registers,
    });
    this.llmTokens = new Counter({
      name: "waddle_llm_tokens_total",
      help: "LLM tokens, by agent, model and type (input, output, reasoning).",
      labelNames: ["agent_id", "model", "type"],
      registers,
    });
    this.llmCost = new Counter({
      name: "waddle_llm_cost_usd_total",
      help: "LLM cost in US dollars, by agent and model (from the price table).",
      labelNames: ["agent_id", "model"],
      registers,
    });
    this.toolCalls = new Counter({
      name: "waddle_tool_calls_total",
      help: "Tool calls ended, by agent, tool and outcome (ok, error).",
      labelNames: ["agent_id", "tool", "outcome"],
      registers,
    });
    this.autoSeqSaved = new Counter({
      name: "waddle_auto_seq_calls_saved_total",
      help: "LLM calls saved by auto-seq (a step taken without asking the model).",
      labelNames: ["agent_id"],
      registers,
    });
    this.pauses = new Counter({
      name: "waddle_pauses_total",
      help: "Pauses, by agent and reason.",
      labelNames: ["agent_id", "reason"],
      registers,
    });
    this.stuck = new Counter({
      name: "waddle_stuck_detected_total",
      help: "Runs found going in circles (stuck_detected), by agent, pattern and what the planner did.",
      labelNames: ["agent_id", "pattern", "action"],
      registers,
    });
    this.guardVerdicts = new Counter({
      name: "waddle_guard_verdicts_total",
      help: "Guard decisions (guard_verdict), by agent, stage (on), check kind, verdict (pass, fail, error) and what was done.",
      labelNames: ["agent_id", "on", "check", "verdict", "action"],
      registers,
    });
    const { store } = sources;
    new Gauge({
      name: "waddle_runs_paused",
      help: "Runs waiting at a pause for a person (every instance's, from the store).",
      registers,
      async collect() {
        this.set((await store.listRuns({ statuses: ["paused"], limit: COUNT_LIMIT })).length);
      },
    });
    new Gauge({
      name: "waddle_run_ratings",
      help: "Runs rated by public chat visitors, by agent and rating (up, down; every instance's, from the store).",
      labelNames: ["agent_id", "rating"],
      registers,
      async collect() {
        this.reset();
        for (const { agentId, rating, count } of await store.publicChat.ratings.countByAgent()) {
          this.set({ agent_id: agentId, rating }, count);
        }
      },
    });
    new Gauge({
      name: "waddle_runs_queued",
      help: "Runs waiting for a worker (every instance's, from the store).",
      registers,
      async collect() {
        this.set((await store.listRuns({ statuses: ["queued"], limit: COUNT_LIMIT })).length);
      },
    });
    if (sources.activeRuns) {
      const activeRuns = sources.activeRuns;
      new Gauge({
        name: "waddle_runs_active",
        help: "Runs executing in this process.",
        registers,
        collect() {
          this.set(activeRuns());
        },
      });
    }
    if (sources.queueStats) {
      const queueStats = sources.queueStats;
      const workers = new Gauge({
        name: "waddle_queue_workers",
        help: "Queue mode: workers listening on the run queue (every instance's).",
        registers,
      });
      new Gauge({
        name: "waddle_queue_depth",
        help: "Queue mode: run jobs waiting in the queue.",
        registers,
        async collect() {
          const stats = await queueStats();
          if (!stats) return;
          this.set(stats.waiting);
          workers.set(stats.workers);
        },
      });
    }
    if (sources.liveSockets) {
      const liveSockets = sources.liveSockets;
      new Gauge({
        name: "waddle_live_sockets",
        help: "Socket.io connections to this process.",
        registers,
        collect() {
          this.set(liveSockets());
        },
      });
    }
    const droppedSpans = sources.droppedSpans;
    const reported = { dropped: 0 };
    new Counter({
      name: "waddle_otel_dropped_spans_total",
      help: "Spans tracing dropped: its export queue was full, or the collector refused them or was unreachable.",
      registers,
      collect() {
        const now = droppedSpans?.() ?? 0;
        if (now > reported.dropped) this.inc(now - reported.dropped);
        reported.dropped = now;
      },
    });
  }

  /** The Prometheus text format. */
  render(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  onEvent(event: RunEvent, run: ObservedRun): void {
    if (event.replayed === true) return;
    const agent = { agent_id: run.record.agentId };
    switch (event.type) {
      case "run_started":
        this.runsStarted.inc(agent);
        break;
      case "llm_call": {
        const { model, purpose } = event.data;
        this.llmCalls.inc({ ...agent, model, purpose });
        this.llmTokens.inc({ ...agent, model, type: "input" }, event.data.promptTokens);
        this.llmTokens.inc({ ...agent, model, type: "output" }, event.data.completionTokens);
        if (event.data.reasoningTokens > 0)
          this.llmTokens.inc({ ...agent, model, type: "reasoning" }, event.data.reasoningTokens);
        if (event.data.costUsd > 0) this.llmCost.inc({ ...agent, model }, event.data.costUsd);
        break;
      }
      case "tool_end":
        this.toolCalls.inc({ ...agent, tool: event.data.tool, outcome: "ok" });
        break;
      case "tool_error":
        this.toolCalls.inc({ ...agent, tool: event.data.tool, outcome: "error" });
        break;
      case "auto_seq_executed":
        this.autoSeqSaved.inc(agent);
        break;
      case "pause":
        this.pauses.inc({ ...agent, reason: event.data.reason });
        break;
      case "stuck_detected":
        this.stuck.inc({ ...agent, pattern: event.data.pattern, action: event.data.action });
        break;
      case "guard_verdict": {
        const { on, check, verdict, action } = event.data;
        this.guardVerdicts.inc({ ...agent, on, check, verdict, action });
        break;
      }
      case "run_finished":
        this.recordEnd(run, event.ts, event.data.reason === "cancelled" ? "cancelled" : "finished");
        break;
      case "run_failed":
        this.recordEnd(run, event.ts, "failed");
        break;
      case "run_interrupted":
        this.recordEnd(run, event.ts, "interrupted");
        break;
      default:
        break;
    }
  }

  private recordEnd(run: ObservedRun, ts: number, status: string): void {
    const labels = { agent_id: run.record.agentId, status };
    this.runsEnded.inc(labels);
    const started = Date.parse(run.record.startedAt ?? run.record.createdAt ?? "");
    if (Number.isFinite(started) && ts >= started) this.runDuration.observe(labels, (ts - started) / 1000);
  }
}
