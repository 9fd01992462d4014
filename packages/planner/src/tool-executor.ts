import type { ActionSource, PlannerOptions, RunEventData, ToolFailure } from "@waddle/protocol";
import { LazyAbortSignal, TimeoutError, type Cancellation } from "./cancellation.js";
import type { Sleep } from "./abortable-sleep.js";
import { computeBackoffDelay } from "./backoff-delay.js";
import type { CatalogTool } from "./catalog.js";
import { redactText } from "./create-preview.js";
import type { RunEventEmitter } from "./run-event-emitter.js";
import { createFailure } from "./run-state.js";
import type { ToolResumeInput, ToolRunContext } from "./tool.js";
import { isToolPauseSignal, ToolPauseSignal } from "./tool-pause-signal.js";

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
}

export type ToolCallResult =
  | { ok: true; observation: unknown; durationMs: number; attempts: number }
  | { ok: false; failure: ToolFailure; durationMs: number; attempts: number; cancelled: boolean };

const SUGGESTIONS: Readonly<Record<string, string>> = {
  timeout: "The tool timed out: try smaller inputs, another tool, or answer with what you have.",
  invalid_output:
    "The tool returned data that does not match its out schema: try other args or another tool.",
  cancelled: "The run was cancelled.",
};
const DEFAULT_SUGGESTION = "Try different args or another tool, or answer with what you have.";
const ERROR_CODE_PATTERN = /^[a-z][a-z0-9_.]{0,63}$/;

/**
 * Runs one tool call under its retry policy: exponential backoff with jitter between attempts, a timeout
 * per attempt (capped by the run's deadline), cancellation through the run's signal that reaches the tool
 * and stops waiting at once even if the tool ignores it, and the result validated against the out schema.
 * A failure comes back as a `ToolFailure` observation; `ctx.pause()` propagates as `ToolPauseSignal`.
 */
export async function executeToolCall(runtime: ToolRuntime, call: ToolCall): Promise<ToolCallResult> {
  const { tool } = call;
  const policy =
    tool.retry === undefined ? runtime.options.toolRetry : { ...runtime.options.toolRetry, ...tool.retry };
  const started = runtime.clock();
  for (let attempt = 1; ; attempt += 1) {
    emitStart(runtime, call, attempt);
    const outcome = await runAttempt(runtime, call, attempt);
    if (outcome.ok) {
      const durationMs = Math.max(0, runtime.clock() - started);
      emitEnd(runtime, call, outcome.observation, durationMs);
      return { ok: true, observation: outcome.observation, durationMs, attempts: attempt };
    }
    const cancelled = runtime.cancellation.aborted;
    const retryDelay = cancelled || !outcome.retryable ? undefined : nextDelay(runtime, policy, attempt);
    if (retryDelay !== undefined) {
      runtime.events.emit(
        "tool_retry",
        {
          tool: tool.name,
          callId: call.callId,
          attempt: attempt + 1,
          delayMs: retryDelay,
          error_code: outcome.code,
          message: outcome.message,
        },
        call.step,
      );
      try {
        await runtime.sleep(retryDelay, runtime.cancellation.signal);
        continue;
      } catch {
        // Cancelled while backing off: report the failure we have.
      }
    }
    const durationMs = Math.max(0, runtime.clock() - started);
    const failure = createFailure({
      node: tool.name,
      args: call.args,
      errorCode: runtime.cancellation.aborted ? "cancelled" : outcome.code,
      message: runtime.cancellation.aborted ? "The run was cancelled." : outcome.message,
      suggestion: runtime.cancellation.aborted ? SUGGESTIONS.cancelled : outcome.suggestion,
    });
    emitError(runtime, call, failure, durationMs);
    return { ok: false, failure, durationMs, attempts: attempt, cancelled: runtime.cancellation.aborted };
  }
}

type AttemptOutcome =
  | { ok: true; observation: unknown }
  | { ok: false; code: string; message: string; suggestion: string; retryable: boolean };

async function runAttempt(runtime: ToolRuntime, call: ToolCall, attempt: number): Promise<AttemptOutcome> {
  const timeoutMs = attemptTimeout(runtime, call.tool);
  const lazy = new LazyAbortSignal();
  const context = new AttemptContext({ runtime, call, attempt, lazy });
  try {
    const started = startTool(call, context);
    // Most tools settle within a microtask (pure functions, mocks without latency): they need no timeout
    // or cancellation race, which costs more than they do.
    // An already-settled promise wins the race against the pre-resolved marker (no closures needed).
    let raw: unknown = await Promise.race([started, NOT_SETTLED]);
    if (raw === NOT_SETTLED_VALUE) {
      raw = await runtime.cancellation.race(started, {
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
        onAbort: (reason) => lazy.abort(reason),
      });
    }
    const parsed = call.tool.out.safeParse(raw);
    if (parsed.success) return { ok: true, observation: parsed.data };
    const issue = parsed.error.issues[0];
    return failed(runtime, {
      code: "invalid_output",
      message:
        `The result of ${call.tool.name} does not match its out schema: ${issue?.path.join(".") || "(root)"} ${issue?.message ?? ""}`.trim(),
      retryable: false,
    });
  } catch (error) {
    if (isToolPauseSignal(error)) throw error;
    if (error instanceof TimeoutError && !runtime.cancellation.aborted) {
      return failed(runtime, {
        code: "timeout",
        message: `${call.tool.name} did not finish within ${error.timeoutMs} ms.`,
        retryable: true,
      });
    }
    return failed(runtime, describeError(error));
  }
}

const NOT_SETTLED_VALUE = Symbol("notSettled");
const NOT_SETTLED = Promise.resolve(NOT_SETTLED_VALUE);

/** The tool's promise; a runner that throws synchronously becomes a rejection. */
function startTool(call: ToolCall, context: ToolRunContext): Promise<unknown> {
  try {
    return Promise.resolve(call.tool.run(call.args, context));
  } catch (error) {
    return Promise.reject(error as Error);
  }
}

function failed(
  runtime: ToolRuntime,
  input: { code: string; message: string; retryable: boolean; suggestion?: string },
): AttemptOutcome {
  return {
    ok: false,
    code: input.code,
    message: redactText(input.message, runtime.secrets),
    suggestion: input.suggestion ?? SUGGESTIONS[input.code] ?? DEFAULT_SUGGESTION,
    retryable: input.retryable,
  };
}

/** A thrown value as a failure: its `code` when it is a plain identifier, its `suggestion`, `retryable`. */
function describeError(error: unknown): {
  code: string;
  message: string;
  retryable: boolean;
  suggestion?: string;
} {
  if (error instanceof Error) {
    const fields = error as Error & { code?: unknown; retryable?: unknown; suggestion?: unknown };
    const code =
      typeof fields.code === "string" && ERROR_CODE_PATTERN.test(fields.code) ? fields.code : "tool_error";
    const out: { code: string; message: string; retryable: boolean; suggestion?: string } = {
      code,
      message: error.message || error.name,
      retryable: fields.retryable !== false,
    };
    if (typeof fields.suggestion === "string") out.suggestion = fields.suggestion;
    return out;
  }
  return {
    code: "tool_error",
    message: typeof error === "string" ? error : "The tool failed.",
    retryable: true,
  };
}

function attemptTimeout(runtime: ToolRuntime, tool: CatalogTool): number | undefined {
  const own = tool.timeoutMs ?? runtime.options.toolTimeoutMs;
  if (runtime.deadlineAt === undefined) return own;
  return Math.max(0, Math.min(own, runtime.deadlineAt - runtime.clock()));
}

function nextDelay(
  runtime: ToolRuntime,
  policy: PlannerOptions["toolRetry"],
  attempt: number,
): number | undefined {
  if (attempt >= policy.maxAttempts) return undefined;
  const delay = computeBackoffDelay({ attempt, policy, random: runtime.random });
  // No retry that would start after the deadline.
  if (runtime.deadlineAt !== undefined && runtime.clock() + delay >= runtime.deadlineAt) return undefined;
  return delay;
}

/** The context a tool sees; a class so that each attempt allocates fields only, not closures. */
class AttemptContext implements ToolRunContext {
  readonly toolContext: Readonly<Record<string, unknown>>;
  readonly runId: string;
  readonly step: number;
  readonly callId: string;
  readonly attempt: number;
  readonly query: string;
  readonly observations: ToolRunContext["observations"];
  readonly resumeInput?: ToolResumeInput;
  private readonly lazy: LazyAbortSignal;

  constructor(input: { runtime: ToolRuntime; call: ToolCall; attempt: number; lazy: LazyAbortSignal }) {
    const { runtime, call } = input;
    this.toolContext = runtime.toolContext;
    this.runId = runtime.runId;
    this.step = call.step;
    this.callId = call.callId;
    this.attempt = input.attempt;
    this.query = runtime.query;
    this.observations = runtime.observations;
    this.lazy = input.lazy;
    if (call.resumeInput !== undefined) this.resumeInput = call.resumeInput;
  }

  get signal(): AbortSignal {
    return this.lazy.signal;
  }

  pause(reason: "await_input" | "external_event", payload?: Record<string, unknown>): never {
    throw new ToolPauseSignal(reason, payload);
  }
}

type Placement = { parallelId?: string; branch?: number; join?: boolean };

/** Adds where the call sits in a parallel plan (no object spread: this runs for every tool event). */
function place<T extends Placement>(data: T, call: ToolCall): T {
  if (call.parallelId !== undefined) data.parallelId = call.parallelId;
  if (call.branch !== undefined) data.branch = call.branch;
  if (call.join === true) data.join = true;
  return data;
}

function emitStart(runtime: ToolRuntime, call: ToolCall, attempt: number): void {
  if (!runtime.events.enabled) return runtime.events.skip();
  const data: RunEventData<"tool_start"> = {
    tool: call.tool.name,
    callId: call.callId,
    args: runtime.events.preview(call.args),
    attempt,
  };
  if (call.source !== undefined) data.source = call.source;
  runtime.events.emit("tool_start", place(data, call), call.step);
}

function emitEnd(runtime: ToolRuntime, call: ToolCall, observation: unknown, durationMs: number): void {
  if (!runtime.events.enabled) return runtime.events.skip();
  const data: RunEventData<"tool_end"> = {
    tool: call.tool.name,
    callId: call.callId,
    observation: runtime.events.preview(observation),
    durationMs,
  };
  runtime.events.emit("tool_end", place(data, call), call.step);
}

function emitError(runtime: ToolRuntime, call: ToolCall, failure: ToolFailure, durationMs: number): void {
  if (!runtime.events.enabled) return runtime.events.skip();
  const shown = { ...failure, args: runtime.events.preview(failure.args) };
  const data: RunEventData<"tool_error"> = {
    tool: call.tool.name,
    callId: call.callId,
    failure: shown,
    durationMs,
  };
  runtime.events.emit("tool_error", place(data, call), call.step);
}
