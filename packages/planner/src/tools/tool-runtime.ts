import type { ActionSource, PlannerOptions, ToolFailure } from "@waddle/protocol";
import type { CatalogTool } from "../catalog/catalog.js";
import type { ToolResumeInput, ToolRunContext } from "../catalog/tool.js";
import type { ToolUsageReport } from "../catalog/tool-usage-report.js";
import type { RunCalls } from "../run/call-record.js";
import type { RunEventEmitter } from "../run/run-event-emitter.js";
import type { Sleep } from "../util/abortable-sleep.js";
import type { Cancellation } from "../util/cancellation.js";
import type { GuardEngine, GuardStop } from "../guards/guard-engine.js";

/** What the executor needs from the run: no planner internals, so that it can be tested on its own. */
export interface ToolRuntime {
  runId: string;
  query: string;
  toolContext: Readonly<Record<string, unknown>>;
  /** The run's cancellation (its signal aborts when the run is cancelled). */
  cancellation: Cancellation;
  events: RunEventEmitter;
  clock: () => number;
  random: () => number;
  sleep: Sleep;
  options: Pick<PlannerOptions, "toolRetry" | "toolTimeoutMs">;
  /** Absolute clock time at which the run's deadline passes, if any: caps each call's timeout. */
  deadlineAt?: number;
  secrets: ReadonlySet<string>;
  observations: ToolRunContext["observations"];
  /** Counts model usage a tool reported (`ctx.reportUsage`), at the step of its call. */
  reportUsage(report: ToolUsageReport, step: number): void;
  /** Where successful calls are recorded, and what serves calls from an earlier run's record (forks). */
  calls?: Pick<RunCalls, "record" | "replay">;
  /** The agent's guards, when some check tool results (docs/guides/guardrails.md). */
  guards?: GuardEngine;
}

export interface ToolCall {
  tool: CatalogTool;
  /** Args already validated against the tool's args schema. */
  args: Record<string, unknown>;
  step: number;
  callId: string;
  source?: ActionSource;
  parallelId?: string;
  branch?: number;
  join?: boolean;
  resumeInput?: ToolResumeInput;
  /** A person's note on their approval of this call (`ToolRunContext.approvalNote`). */
  approvalNote?: string;
  /** A clock reading the caller took just before: the call's start (one clock read less). */
  startedAt?: number;
}

/** How a call ended; `endedAt` is the clock reading its `durationMs` and its last event used. */
export type ToolCallResult =
  | {
      ok: true;
      observation: unknown;
      durationMs: number;
      endedAt: number;
      attempts: number;
      /** A guard holds this result for a person (`action: "pause"`): the model does not see it yet. */
      held?: GuardStop;
    }
  | {
      ok: false;
      failure: ToolFailure;
      durationMs: number;
      endedAt: number;
      attempts: number;
      cancelled: boolean;
    };
