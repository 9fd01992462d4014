import {
  RESERVED_TOOL_NAMES,
  TOOL_NAME_PATTERN,
  type RetryPolicy,
  type SideEffect,
  type ToolSpec,
} from "@waddle/protocol";
import type { z } from "zod";
import type { ToolUsageReportInput } from "./tool-usage-report.js";

export interface ToolResumeInput {
  decision: "approve" | "reject" | "edit";
  userInput?: string;
  args?: Record<string, unknown>;
  /**
   * The payload this call gave `ctx.pause()`, as it was saved with the pause: what the call needs to pick
   * up where it stopped (a remote task's id), after a restart or on another worker as well.
   */
  pausePayload?: Record<string, unknown>;
}

/** A progress report of a running call (`ToolRunContext.reportProgress`). */
export interface ToolProgressInput {
  progress: number;
  total?: number;
  message?: string;
}

/** What a tool sees when it runs. Secrets arrive in `toolContext`, never in args. */
export interface ToolRunContext {
  /** Aborted when the run is cancelled or the call times out: pass it to fetch and timers. */
  signal: AbortSignal;
  /** Secrets and opaque objects given to `run()`; never shown to the LLM, never put in events. */
  toolContext: Readonly<Record<string, unknown>>;
  runId: string;
  step: number;
  callId: string;
  /** 1-based attempt number under the retry policy. */
  attempt: number;
  /** The user's query of this run. */
  query: string;
  /** The previous observation, and the latest observation of each tool so far. */
  observations: { last: unknown; byTool: Readonly<Record<string, unknown>> };
  /**
   * Reports model usage this call incurred (an LLM it asked, a subagent it ran): added to the run's usage
   * and cost at once, so `budget_hints.max_cost_usd` sees it before the next step, and emitted as
   * `llm_call` with `purpose` "tool" (default) or "subagent". Call it once per model call; cost defaults to
   * usage × the run's price table. Throws `invalid_usage_report` for counts that are not whole and >= 0.
   */
  reportUsage(usage: ToolUsageReportInput): void;
  /**
   * Reports how far the call has come: emitted as `tool_progress` (at most `MAX_PROGRESS_EVENTS` per call;
   * the message is cut to 500 characters and redacted). Optional so that hand-made contexts need not have it.
   */
  reportProgress?(progress: ToolProgressInput): void;
  /** Pauses the run until a person answers (`resume`); never returns. */
  pause(reason: "await_input" | "external_event", payload?: Record<string, unknown>): never;
  /** Set when this call runs again after its own pause was resumed. */
  resumeInput?: ToolResumeInput;
  /** The note a person sent with their approval of this call (`resume` with approve or edit and `userInput`). */
  approvalNote?: string;
}

export interface ToolDefinition<Args extends z.ZodType = z.ZodType, Out extends z.ZodType = z.ZodType> {
  name: string;
  desc: string;
  args: Args;
  out: Out;
  sideEffects?: SideEffect;
  tags?: readonly string[];
  authScopes?: readonly string[];
  costHint?: string;
  costUsd?: number;
  latencyHintMs?: number;
  safetyNotes?: string;
  extra?: Readonly<Record<string, unknown>>;
  requiresApproval?: boolean;
  autoSeq?: boolean;
  autoSeqExecute?: boolean;
  retry?: Partial<RetryPolicy>;
  timeoutMs?: number;
  run(args: z.output<Args>, context: ToolRunContext): Promise<z.input<Out>> | z.input<Out>;
}

/** Thrown by `defineTool` for a name the LLM could not call. */
export class ToolDefinitionError extends Error {
  readonly code = "invalid_tool_definition" as const;
  constructor(message: string) {
    super(message);
    this.name = "ToolDefinitionError";
  }
}

/**
 * Declares a tool written in TypeScript: zod schemas for args and result, metadata for the catalog, and
 * `run`. Names that clash with planner opcodes (`final_response`, `parallel`, `task.*`, …) are refused.
 */
export function defineTool<Args extends z.ZodType, Out extends z.ZodType>(
  definition: ToolDefinition<Args, Out>,
): Readonly<ToolDefinition<Args, Out>> {
  if (RESERVED_TOOL_NAMES.has(definition.name)) {
    throw new ToolDefinitionError(`"${definition.name}" is a planner opcode and cannot name a tool.`);
  }
  if (!TOOL_NAME_PATTERN.test(definition.name)) {
    throw new ToolDefinitionError(
      `"${definition.name}" is not a valid tool name: start with a letter or "_" and use letters, digits and "_".`,
    );
  }
  return Object.freeze({ ...definition });
}

/** Runs one tool call with validated args; returns the raw result, validated afterwards by the catalog. */
export type ToolRunner = (args: Record<string, unknown>, context: ToolRunContext) => Promise<unknown>;

/**
 * Supplies the runner of a spec tool whose impl the planner does not run itself (the planner runs
 * `mock`; the server supplies `module`, `http`, `llm` and `agent`). `undefined` means "not available".
 */
export type ImplResolver = (tool: ToolSpec) => ToolRunner | undefined;
