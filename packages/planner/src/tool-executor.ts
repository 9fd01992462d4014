import type { ActionSource, PlannerOptions, ToolFailure } from "@waddle/protocol";
import { createAbortScope, raceAbort } from "./abort-scope.js";
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
  /** The run's signal: cancellation. */
  signal: AbortSignal;
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
  const policy = { ...runtime.options.toolRetry, ...tool.retry };
  const started = runtime.clock();
  for (let attempt = 1; ; attempt += 1) {
    emitStart(runtime, call, attempt);
    const outcome = await runAttempt(runtime, call, attempt);
    if (outcome.ok) {
      const durationMs = Math.max(0, runtime.clock() - started);
      emitEnd(runtime, call, outcome.observation, durationMs);
      return { ok: true, observation: outcome.observation, durationMs, attempts: attempt };
    }
    const cancelled = runtime.signal.aborted;
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
        await runtime.sleep(retryDelay, runtime.signal);
        continue;
      } catch {
        // Cancelled while backing off: report the failure we have.
      }
    }
    const durationMs = Math.max(0, runtime.clock() - started);
    const failure = createFailure({
      node: tool.name,
      args: call.args,
      errorCode: runtime.signal.aborted ? "cancelled" : outcome.code,
      message: runtime.signal.aborted ? "The run was cancelled." : outcome.message,
      suggestion: runtime.signal.aborted ? SUGGESTIONS.cancelled : outcome.suggestion,
    });
    emitError(runtime, call, failure, durationMs);
    return { ok: false, failure, durationMs, attempts: attempt, cancelled: runtime.signal.aborted };
  }
}

type AttemptOutcome =
  | { ok: true; observation: unknown }
  | { ok: false; code: string; message: string; suggestion: string; retryable: boolean };

async function runAttempt(runtime: ToolRuntime, call: ToolCall, attempt: number): Promise<AttemptOutcome> {
  const scope = createAbortScope(runtime.signal, attemptTimeout(runtime, call.tool));
  const context = createContext(runtime, call, attempt, scope.signal);
  try {
    const raw = await raceAbort(
      Promise.resolve().then(() => call.tool.run(call.args, context)),
      scope.signal,
    );
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
    if (scope.timedOut && !runtime.signal.aborted) {
      return failed(runtime, {
        code: "timeout",
        message: `${call.tool.name} did not finish within ${Math.round(attemptTimeout(runtime, call.tool) ?? 0)} ms.`,
        retryable: true,
      });
    }
    return failed(runtime, describeError(error));
  } finally {
    scope.dispose();
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

function createContext(
  runtime: ToolRuntime,
  call: ToolCall,
  attempt: number,
  signal: AbortSignal,
): ToolRunContext {
  const context: ToolRunContext = {
    signal,
    toolContext: runtime.toolContext,
    runId: runtime.runId,
    step: call.step,
    callId: call.callId,
    attempt,
    query: runtime.query,
    observations: runtime.observations,
    pause(reason, payload) {
      throw new ToolPauseSignal(reason, payload);
    },
  };
  if (call.resumeInput !== undefined) context.resumeInput = call.resumeInput;
  return context;
}

function placement(call: ToolCall): { parallelId?: string; branch?: number; join?: boolean } {
  const out: { parallelId?: string; branch?: number; join?: boolean } = {};
  if (call.parallelId !== undefined) out.parallelId = call.parallelId;
  if (call.branch !== undefined) out.branch = call.branch;
  if (call.join === true) out.join = true;
  return out;
}

function emitStart(runtime: ToolRuntime, call: ToolCall, attempt: number): void {
  const data = {
    tool: call.tool.name,
    callId: call.callId,
    args: runtime.events.preview(call.args),
    attempt,
    ...placement(call),
  };
  runtime.events.emit(
    "tool_start",
    call.source === undefined ? data : { ...data, source: call.source },
    call.step,
  );
}

function emitEnd(runtime: ToolRuntime, call: ToolCall, observation: unknown, durationMs: number): void {
  runtime.events.emit(
    "tool_end",
    {
      tool: call.tool.name,
      callId: call.callId,
      observation: runtime.events.preview(observation),
      durationMs,
      ...placement(call),
    },
    call.step,
  );
}

function emitError(runtime: ToolRuntime, call: ToolCall, failure: ToolFailure, durationMs: number): void {
  const shown = { ...failure, args: runtime.events.preview(failure.args) };
  runtime.events.emit(
    "tool_error",
    { tool: call.tool.name, callId: call.callId, failure: shown, durationMs, ...placement(call) },
    call.step,
  );
}
