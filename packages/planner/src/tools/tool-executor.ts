import type { PlannerOptions, RunEventData, ToolFailure } from "@waddle/protocol";
import { computeBackoffDelay } from "../util/backoff-delay.js";
import { createFailure } from "../run/run-state.js";
import { scrubSecrets } from "../secrets/secret-scrubber.js";
import { CANCELLED_SUGGESTION, runAttempt, type AttemptOutcome } from "./tool-attempt.js";
import type { ServedToolCall } from "../run/call-record.js";
import type { ToolCall, ToolCallResult, ToolRuntime } from "./tool-runtime.js";
import type { GuardEngine } from "../guards/guard-engine.js";
import { getHeldPreview, getResultGuards, guardToolResult } from "./guarded-result.js";

/**
 * Runs one tool call under its retry policy: exponential backoff with jitter between attempts, a timeout
 * per attempt (capped by the run's deadline), cancellation through the run's signal that reaches the tool
 * and stops waiting at once even if the tool ignores it, and the result validated against the out schema.
 * A failure comes back as a `ToolFailure` observation; `ctx.pause()` propagates as `ToolPauseSignal`.
 * A TypeScript tool that returned a valid plain value gets its result back at once, not as a promise:
 * `await` it either way.
 */
export function executeToolCall(
  runtime: ToolRuntime,
  call: ToolCall,
): ToolCallResult | Promise<ToolCallResult> {
  const started = call.startedAt ?? runtime.clock();
  const served = getServedCall(runtime, call);
  if (served !== undefined) {
    return "refused" in served
      ? refusedByReplay(runtime, { call, started, refused: served.refused })
      : servedFromRecord(runtime, { call, started, served });
  }
  emitStart(runtime, call, { attempt: 1, ts: started });
  const first = runAttempt(runtime, call, 1);
  // The common case of pure tools: done and valid, so no async frame and no await for this call.
  if (!(first instanceof Promise) && first.ok)
    return succeeded(runtime, { call, outcome: first, started, attempt: 1 });
  return settleAttempts(runtime, { call, first, started });
}

function succeeded(
  runtime: ToolRuntime,
  input: { call: ToolCall; outcome: Extract<AttemptOutcome, { ok: true }>; started: number; attempt: number },
): ToolCallResult | Promise<ToolCallResult> {
  const { observation } = input.outcome;
  const endedAt = runtime.clock();
  const durationMs = Math.max(0, endedAt - input.started);
  const ended = { observation, durationMs, endedAt, attempts: input.attempt };
  const guards = getResultGuards(runtime, input.call);
  if (guards !== undefined) return guardedEnd(runtime, guards, { call: input.call, ...ended });
  emitEnd(runtime, input.call, { observation, durationMs, ts: endedAt });
  recordCall(runtime, input.call, observation);
  return { ok: true, ...ended };
}

/**
 * A result the guards see before anything else does: `tool_end` shows what they let through (masked, or
 * only that it is held), the record keeps the same, and a blocked result ends as `tool_error`.
 */
async function guardedEnd(
  runtime: ToolRuntime,
  guards: GuardEngine,
  input: {
    call: ToolCall;
    observation: unknown;
    durationMs: number;
    endedAt: number;
    attempts: number;
    cached?: boolean;
  },
): Promise<ToolCallResult> {
  const { call, durationMs, endedAt, attempts } = input;
  const guarded = await guardToolResult(runtime, guards, input);
  if (guarded.kind === "blocked") {
    emitError(runtime, call, { failure: guarded.result.failure, durationMs, ts: endedAt });
    return guarded.result;
  }
  const cached = input.cached === true;
  if (guarded.kind === "held") {
    emitEnd(runtime, call, { observation: getHeldPreview(guarded.held), durationMs, ts: endedAt, cached });
    return { ok: true, observation: guarded.observation, durationMs, endedAt, attempts, held: guarded.held };
  }
  emitEnd(runtime, call, { observation: guarded.observation, durationMs, ts: endedAt, cached });
  recordCall(runtime, call, guarded.observation);
  return { ok: true, observation: guarded.observation, durationMs, endedAt, attempts };
}

function recordCall(runtime: ToolRuntime, call: ToolCall, observation: unknown): void {
  const record = runtime.calls?.record;
  if (record === undefined) return;
  try {
    // toolContext strings never reach a record, as they never reach events or the trajectory.
    record({
      kind: "tool",
      step: call.step,
      tool: call.tool.name,
      sideEffects: call.tool.sideEffects,
      args: scrubSecrets(call.args, runtime.secrets),
      observation: scrubSecrets(observation, runtime.secrets),
    });
  } catch {
    // A failing record sink must not break the run.
  }
}

/** A call the replay layer serves from an earlier run's record (never one a paused tool resumes). */
function getServedCall(runtime: ToolRuntime, call: ToolCall): ServedToolCall | undefined {
  const lookup = runtime.calls?.replay?.tool;
  if (lookup === undefined || call.resumeInput !== undefined) return undefined;
  return lookup({ tool: call.tool.name, sideEffects: call.tool.sideEffects, args: call.args });
}

/** A served call: the tool does not run; its events say `cached`, or `edited` for a person's value. */
function servedFromRecord(
  runtime: ToolRuntime,
  input: { call: ToolCall; started: number; served: { observation: unknown; edited?: boolean } },
): ToolCallResult | Promise<ToolCallResult> {
  const { call, started } = input;
  const { observation } = input.served;
  const edited = input.served.edited === true;
  emitStart(runtime, call, { attempt: 1, ts: started, cached: !edited, edited });
  // A served result is checked like a live one: a test case's mock meets the same guards.
  const guards = getResultGuards(runtime, call);
  if (guards !== undefined) {
    const ended = { observation, durationMs: 0, endedAt: started, attempts: 1, cached: !edited };
    return guardedEnd(runtime, guards, { call, ...ended });
  }
  emitEnd(runtime, call, { observation, durationMs: 0, ts: started, cached: !edited, edited });
  // A served call is part of this run's record too: a fork of this run may reuse it.
  if (!edited) recordCall(runtime, call, observation);
  return { ok: true, observation, durationMs: 0, endedAt: started, attempts: 1 };
}

/**
 * A call the replay layer refused: the tool does not run, not even once, and the model reads the refusal
 * as the call's failure (never retried), as for any failing tool.
 */
function refusedByReplay(
  runtime: ToolRuntime,
  input: {
    call: ToolCall;
    started: number;
    refused: Extract<ServedToolCall, { refused: unknown }>["refused"];
  },
): ToolCallResult {
  const { call, started, refused } = input;
  const failure = createFailure({
    node: call.tool.name,
    args: call.args,
    errorCode: refused.code,
    message: refused.message,
    ...(refused.suggestion === undefined ? {} : { suggestion: refused.suggestion }),
  });
  emitStart(runtime, call, { attempt: 1, ts: started });
  emitError(runtime, call, { failure, durationMs: 0, ts: started });
  return { ok: false, failure, durationMs: 0, endedAt: started, attempts: 1, cancelled: false };
}

/** The first attempt's outcome once it settles, then the retries while the policy allows them. */
async function settleAttempts(
  runtime: ToolRuntime,
  input: { call: ToolCall; first: AttemptOutcome | Promise<AttemptOutcome>; started: number },
): Promise<ToolCallResult> {
  const { call, started } = input;
  const { tool } = call;
  const policy =
    tool.retry === undefined ? runtime.options.toolRetry : { ...runtime.options.toolRetry, ...tool.retry };
  let outcome = await input.first;
  for (let attempt = 1; ; attempt += 1) {
    if (attempt > 1) {
      emitStart(runtime, call, { attempt, ts: runtime.clock() });
      outcome = await runAttempt(runtime, call, attempt);
    }
    if (outcome.ok) return await succeeded(runtime, { call, outcome, started, attempt });
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
    const endedAt = runtime.clock();
    const durationMs = Math.max(0, endedAt - started);
    const failure = createFailure({
      node: tool.name,
      args: call.args,
      errorCode: runtime.cancellation.aborted ? "cancelled" : outcome.code,
      message: runtime.cancellation.aborted ? "The run was cancelled." : outcome.message,
      suggestion: runtime.cancellation.aborted ? CANCELLED_SUGGESTION : outcome.suggestion,
    });
    emitError(runtime, call, { failure, durationMs, ts: endedAt });
    return {
      ok: false,
      failure,
      durationMs,
      endedAt,
      attempts: attempt,
      cancelled: runtime.cancellation.aborted,
    };
  }
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

type Placement = { parallelId?: string; branch?: number; join?: boolean };

/** Adds where the call sits in a parallel plan (no object spread: this runs for every tool event). */
function place<T extends Placement>(data: T, call: ToolCall): T {
  if (call.parallelId !== undefined) data.parallelId = call.parallelId;
  if (call.branch !== undefined) data.branch = call.branch;
  if (call.join === true) data.join = true;
  return data;
}

function emitStart(
  runtime: ToolRuntime,
  call: ToolCall,
  at: { attempt: number; ts: number; cached?: boolean; edited?: boolean },
): void {
  if (!runtime.events.enabled) return runtime.events.skip();
  const data: RunEventData<"tool_start"> = {
    tool: call.tool.name,
    callId: call.callId,
    args: runtime.events.preview(call.args),
    attempt: at.attempt,
  };
  if (call.source !== undefined) data.source = call.source;
  if (at.edited === true) data.edited = true;
  runtime.events.emitAt("tool_start", place(data, call), { ts: at.ts, step: call.step, cached: at.cached });
}

function emitEnd(
  runtime: ToolRuntime,
  call: ToolCall,
  end: { observation: unknown; durationMs: number; ts: number; cached?: boolean; edited?: boolean },
): void {
  if (!runtime.events.enabled) return runtime.events.skip();
  const data: RunEventData<"tool_end"> = {
    tool: call.tool.name,
    callId: call.callId,
    observation: runtime.events.preview(end.observation),
    durationMs: end.durationMs,
  };
  if (end.edited === true) data.edited = true;
  runtime.events.emitAt("tool_end", place(data, call), { ts: end.ts, step: call.step, cached: end.cached });
}

function emitError(
  runtime: ToolRuntime,
  call: ToolCall,
  end: { failure: ToolFailure; durationMs: number; ts: number },
): void {
  if (!runtime.events.enabled) return runtime.events.skip();
  const shown = { ...end.failure, args: runtime.events.preview(end.failure.args) };
  const data: RunEventData<"tool_error"> = {
    tool: call.tool.name,
    callId: call.callId,
    failure: shown,
    durationMs: end.durationMs,
  };
  runtime.events.emitAt("tool_error", place(data, call), { ts: end.ts, step: call.step });
}
