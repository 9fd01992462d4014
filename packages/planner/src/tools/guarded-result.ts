import { createFailure } from "../run/run-state.js";
import type { ToolCall, ToolCallResult, ToolRuntime } from "./tool-runtime.js";
import type { GuardEngine } from "../guards/guard-engine.js";

/** What the guards decided on a tool's result, before any event shows it. */
export type GuardedResult =
  | { kind: "pass"; observation: unknown }
  | { kind: "blocked"; result: Extract<ToolCallResult, { ok: false }> }
  | { kind: "held"; observation: unknown; held: NonNullable<Extract<ToolCallResult, { ok: true }>["held"]> };

/** The guards of a tool result, when this tool has some. */
export function getResultGuards(runtime: ToolRuntime, call: ToolCall): GuardEngine | undefined {
  const guards = runtime.guards;
  return guards !== undefined && guards.has("tool_result", call.tool.name) ? guards : undefined;
}

/**
 * Runs the `tool_result` guards on a successful call's result (docs/guides/guardrails.md), before its
 * `tool_end`: the verdicts are emitted, a `redact` guard's mask replaces the result everywhere after this
 * (events, trajectory, record), a block becomes the call's failure (`guard_blocked`) that the model reads,
 * and a pause holds the result for a person (inside a parallel step, where a run cannot pause, it blocks).
 */
export async function guardToolResult(
  runtime: ToolRuntime,
  guards: GuardEngine,
  input: { call: ToolCall; observation: unknown; durationMs: number; endedAt: number; attempts: number },
): Promise<GuardedResult> {
  const { call } = input;
  const outcome = await guards.apply("tool_result", input.observation, {
    tool: call.tool.name,
    step: call.step,
    cancellation: runtime.cancellation,
  });
  for (const usage of outcome.usage) runtime.reportUsage(usage, call.step);
  for (const data of outcome.verdicts) {
    runtime.events.emit("guard_verdict", { ...data, callId: call.callId }, call.step);
  }
  const stop = outcome.stop;
  if (outcome.decision === "pass" || stop === undefined) return { kind: "pass", observation: outcome.value };
  const inParallel = call.parallelId !== undefined;
  if (outcome.decision === "pause" && !inParallel)
    return { kind: "held", observation: outcome.value, held: stop };
  const why =
    outcome.decision === "pause"
      ? `${stop.message} (a parallel step cannot pause for a person)`
      : stop.message;
  const failure = createFailure({
    node: call.tool.name,
    args: call.args,
    errorCode: "guard_blocked",
    message: why,
    suggestion: "Do not rely on this result: use another tool, or answer with what you have.",
  });
  const { durationMs, endedAt, attempts } = input;
  return { kind: "blocked", result: { ok: false, failure, durationMs, endedAt, attempts, cancelled: false } };
}

/** What `tool_end` shows of a held result: that it waits for a person, not the result. */
export function getHeldPreview(held: { guard: string }): Record<string, unknown> {
  return { held_for_review: `Guard "${held.guard}" holds this result until a person decides.` };
}
