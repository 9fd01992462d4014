import { LazyAbortSignal, TimeoutError } from "../util/cancellation.js";
import type { CatalogTool } from "../catalog/catalog.js";
import { redactText } from "../secrets/redact-text.js";
import type { ToolProgressInput, ToolResumeInput, ToolRunContext } from "../catalog/tool.js";
import type { ToolCall, ToolRuntime } from "./tool-runtime.js";
import { isToolPauseSignal, ToolPauseSignal } from "./tool-pause-signal.js";
import { parseToolUsageReport, type ToolUsageReportInput } from "../catalog/tool-usage-report.js";

/** What one attempt of a tool call gave: a validated observation, or a failure and whether to retry. */
export type AttemptOutcome =
  | { ok: true; observation: unknown }
  | { ok: false; code: string; message: string; suggestion: string; retryable: boolean };

export const CANCELLED_SUGGESTION = "The run was cancelled.";
const SUGGESTIONS: Readonly<Record<string, string>> = {
  timeout: "The tool timed out: try smaller inputs, another tool, or answer with what you have.",
  invalid_output:
    "The tool returned data that does not match its out schema: try other args or another tool.",
  cancelled: CANCELLED_SUGGESTION,
};
const DEFAULT_SUGGESTION = "Try different args or another tool, or answer with what you have.";
const ERROR_CODE_PATTERN = /^[a-z][a-z0-9_.]{0,63}$/;

/**
 * Runs the tool once and validates its result against the out schema. A TypeScript tool that returned a
 * plain value has finished: its outcome comes back at once, without a promise. A promise is awaited under
 * the attempt's timeout and the run's cancellation. `ctx.pause()` propagates as `ToolPauseSignal`.
 */
export function runAttempt(
  runtime: ToolRuntime,
  call: ToolCall,
  attempt: number,
): AttemptOutcome | Promise<AttemptOutcome> {
  const lazy = new LazyAbortSignal();
  const started = startTool(call, new AttemptContext({ runtime, call, attempt, lazy }));
  if (started instanceof Promise) return awaitTool(runtime, { call, started, lazy });
  try {
    return checkResult(runtime, call, started);
  } catch (error) {
    return failedWith(runtime, call, error);
  }
}

async function awaitTool(
  runtime: ToolRuntime,
  input: { call: ToolCall; started: Promise<unknown>; lazy: LazyAbortSignal },
): Promise<AttemptOutcome> {
  const { call, started, lazy } = input;
  const timeoutMs = attemptTimeout(runtime, call.tool);
  try {
    // Most async tools settle within a microtask (mocks without latency): they need no timeout or
    // cancellation race, which costs more than they do. An already-settled promise wins the race against
    // the pre-resolved marker (no closures needed).
    let raw: unknown = await Promise.race([started, NOT_SETTLED]);
    if (raw === NOT_SETTLED_VALUE) {
      raw = await runtime.cancellation.race(started, {
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
        onAbort: (reason) => lazy.abort(reason),
      });
    }
    return checkResult(runtime, call, raw);
  } catch (error) {
    return failedWith(runtime, call, error);
  }
}

const NOT_SETTLED_VALUE = Symbol("notSettled");
const NOT_SETTLED = Promise.resolve(NOT_SETTLED_VALUE);

/**
 * The tool's result: a plain value when a TypeScript tool returned one, else a promise (another thenable
 * is adopted, as `await` would); a runner that throws synchronously becomes a rejection.
 */
function startTool(call: ToolCall, context: ToolRunContext): unknown {
  const { tool } = call;
  try {
    const result: unknown = (tool.runDirect ?? tool.run)(call.args, context);
    return isThenable(result) && !(result instanceof Promise) ? Promise.resolve(result) : result;
  } catch (error) {
    return Promise.reject(error as Error);
  }
}

function isThenable(value: unknown): boolean {
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    typeof (value as { then?: unknown }).then === "function"
  );
}

function checkResult(runtime: ToolRuntime, call: ToolCall, raw: unknown): AttemptOutcome {
  const parsed = call.tool.out.safeParse(raw);
  if (parsed.success) return { ok: true, observation: parsed.data };
  const issue = parsed.error.issues[0];
  return failed(runtime, {
    code: "invalid_output",
    message:
      `The result of ${call.tool.name} does not match its out schema: ${issue?.path.join(".") || "(root)"} ${issue?.message ?? ""}`.trim(),
    retryable: false,
  });
}

/** A thrown error as the attempt's failure; a pause is not a failure and propagates. */
function failedWith(runtime: ToolRuntime, call: ToolCall, error: unknown): AttemptOutcome {
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
  readonly approvalNote?: string;
  private readonly lazy: LazyAbortSignal;
  private readonly runtime: ToolRuntime;
  private readonly toolName: string;
  private progressEvents = 0;

  constructor(input: { runtime: ToolRuntime; call: ToolCall; attempt: number; lazy: LazyAbortSignal }) {
    const { runtime, call } = input;
    this.runtime = runtime;
    this.toolName = call.tool.name;
    this.toolContext = runtime.toolContext;
    this.runId = runtime.runId;
    this.step = call.step;
    this.callId = call.callId;
    this.attempt = input.attempt;
    this.query = runtime.query;
    this.observations = runtime.observations;
    this.lazy = input.lazy;
    if (call.resumeInput !== undefined) this.resumeInput = call.resumeInput;
    if (call.approvalNote !== undefined) this.approvalNote = call.approvalNote;
  }

  get signal(): AbortSignal {
    return this.lazy.signal;
  }

  reportUsage(usage: ToolUsageReportInput): void {
    this.runtime.reportUsage(parseToolUsageReport(usage, this.toolName), this.step);
  }

  reportProgress(input: ToolProgressInput): void {
    if (this.progressEvents >= MAX_PROGRESS_EVENTS || !Number.isFinite(input.progress)) return;
    if (this.lazy.signal.aborted) return;
    this.progressEvents += 1;
    const { runtime } = this;
    const message =
      input.message === undefined ? undefined : redactText(input.message.slice(0, 500), runtime.secrets);
    runtime.events.emit(
      "tool_progress",
      {
        tool: this.toolName,
        callId: this.callId,
        progress: input.progress,
        ...(input.total === undefined || !Number.isFinite(input.total) ? {} : { total: input.total }),
        ...(message === undefined ? {} : { message }),
      },
      this.step,
    );
  }

  pause(reason: "await_input" | "external_event", payload?: Record<string, unknown>): never {
    throw new ToolPauseSignal(reason, payload);
  }
}

/** The most `tool_progress` events one attempt emits: a chatty server cannot flood the run's events. */
export const MAX_PROGRESS_EVENTS = 100;
