import type { ActionSource, PlannerAction } from "@waddle/protocol";
import type { ActionDecision } from "./decision.js";
import type { CheckedAction } from "../actions/action-checker.js";
import { recordAutoSeqExecuted } from "./steps/auto-seq-runner.js";
import type { CatalogTool } from "../catalog/catalog.js";
import { redactText } from "../secrets/redact-text.js";
import type { RunContext } from "./run-context.js";
import type { StepRemarks } from "../run/run-state.js";
import type { EventAt } from "../run/run-event-emitter.js";
import { createActSummary, createObsSummary } from "../trajectory/reflection.js";
import type { PlannerOutcome } from "../run/run-types.js";
import { runWriteTodos } from "./steps/todos-step.js";
import { executeToolCall } from "../tools/tool-executor.js";
import type { ToolCall, ToolCallResult } from "../tools/tool-runtime.js";
import { isToolPauseSignal } from "../tools/tool-pause-signal.js";
import { createFailure } from "../run/run-state.js";
import { checkToolBudgets } from "./budgets/budget-checks.js";
import { holdToolResult } from "./steps/guard-steps.js";

type ToolCheck = Extract<CheckedAction, { kind: "tool" }>;

/** A started tool call: what the step records once its result is in. */
interface StartedTool {
  tool: CatalogTool;
  args: Record<string, unknown>;
  source: ActionSource;
  reply: string | undefined;
  step: number;
  startedAt: number;
  remarks: StepRemarks | undefined;
}

/**
 * One tool step: budgets, the approval gate, `[Act]`, the call (retries, timeout, validation), the step
 * record, `[Obs]`. Not `async`: a tool that returned a plain value completes the step at once, without a
 * promise, so that the loop awaits only tools that really wait.
 */
export function runTool(
  run: RunContext,
  decision: ActionDecision,
  checked: ToolCheck,
): PlannerOutcome | undefined | Promise<PlannerOutcome | undefined> {
  const { tool, args } = checked;
  if (tool === run.config.writeTodosTool) {
    runWriteTodos(run, {
      action: { next_node: tool.name, args },
      source: decision.source,
      reply: decision.reply,
    });
    return undefined;
  }
  const limit = checkToolBudgets(run, tool.costUsd ?? 0, 1);
  if (limit !== undefined) return limit;
  const gate = run.config.approvalGate({
    tool,
    args,
    source: decision.source,
    options: run.config.options,
    approved: decision.approved === true,
  });
  if (gate.pause) {
    if (run.config.options.pauseEnabled === false) return refuseUnapproved(run, decision, checked);
    return run.pause({
      reason: "approval_required",
      kind: "tool_approval",
      payload: gate.payload,
      action: { next_node: tool.name, args },
    });
  }
  const step = run.state.steps.length;
  const started: StartedTool = {
    tool,
    args,
    source: decision.source,
    reply: decision.reply,
    step,
    startedAt: run.config.clock(),
    remarks: decision.remarks,
  };
  // One clock reading for the step's start: `[Act]`, the call's start and `tool_start` share it.
  const at = { ts: started.startedAt, step };
  const summary = run.events.enabled ? createActSummary(tool.name, args) : undefined;
  emitReasoning(run, { phase: "act", summary, at });
  const call: ToolCall = {
    tool,
    args,
    step,
    callId: `step-${step}`,
    source: decision.source,
    startedAt: started.startedAt,
  };
  if (decision.resumeInput !== undefined) call.resumeInput = decision.resumeInput;
  if (decision.approvalNote !== undefined) call.approvalNote = decision.approvalNote;
  let pending: ToolCallResult | Promise<ToolCallResult>;
  try {
    pending = executeToolCall(run.toolRuntime, call);
  } catch (error) {
    return pauseOrThrow(run, started, error);
  }
  return pending instanceof Promise ? awaitTool(run, started, pending) : finishTool(run, started, pending);
}

async function awaitTool(
  run: RunContext,
  started: StartedTool,
  pending: Promise<ToolCallResult>,
): Promise<PlannerOutcome | undefined> {
  let result: ToolCallResult;
  try {
    result = await pending;
  } catch (error) {
    return pauseOrThrow(run, started, error);
  }
  return finishTool(run, started, result);
}

/**
 * `pauseEnabled: false` (docs/pause-resume.md): a call that needs approval is not run, and the model reads
 * why as the step's failure, to answer from or to choose another way.
 */
function refuseUnapproved(run: RunContext, decision: ActionDecision, checked: ToolCheck): undefined {
  const { tool, args } = checked;
  const failure = createFailure({
    node: tool.name,
    args,
    errorCode: "approval_unavailable",
    message: `${tool.name} needs a person's approval, and this run cannot pause to ask for it: it was not run.`,
    suggestion: "Answer with what you have, or use a tool that needs no approval.",
  });
  run.recordStep({
    action: { next_node: tool.name, args },
    source: decision.source,
    failure,
    reply: decision.reply,
    remarks: decision.remarks,
  });
  return undefined;
}

/**
 * A tool that called `ctx.pause()` pauses the run (with `pauseEnabled: false`, the call fails instead and
 * the model reads what the tool asked for); anything else thrown is a bug and fails it.
 */
function pauseOrThrow(
  run: RunContext,
  started: StartedTool,
  error: unknown,
): Promise<PlannerOutcome> | PlannerOutcome | undefined {
  if (!isToolPauseSignal(error)) throw error;
  if (run.config.options.pauseEnabled === false) return failUnpaused(run, started, error);
  const { tool, args } = started;
  return run.pause({
    reason: error.reason,
    kind: "tool_pause",
    payload: { ...error.payload, tool: tool.name, args },
    action: { next_node: tool.name, args },
  });
}

function failUnpaused(
  run: RunContext,
  started: StartedTool,
  signal: { reason: string; payload: Record<string, unknown> },
): PlannerOutcome | undefined | Promise<PlannerOutcome> {
  const { tool, args, step } = started;
  const asked = typeof signal.payload.message === "string" ? `: ${signal.payload.message}` : "";
  const failure = createFailure({
    node: tool.name,
    args,
    errorCode: "pause_unavailable",
    message: `${tool.name} asked for a person (${signal.reason}${asked}), and this run cannot pause: the call did not complete.`,
    suggestion: "Answer with what you have, or ask the user for what the tool needed in your answer.",
  });
  const endedAt = run.config.clock();
  const durationMs = Math.max(0, endedAt - started.startedAt);
  run.events.emitAt(
    "tool_error",
    { tool: tool.name, callId: `step-${step}`, failure, durationMs },
    { ts: endedAt, step },
  );
  return finishTool(run, started, { ok: false, failure, durationMs, endedAt, attempts: 1, cancelled: false });
}

/** Records the step and its `[Obs]`; a cancelled call finishes the run; a held result pauses it. */
function finishTool(
  run: RunContext,
  started: StartedTool,
  result: ToolCallResult,
): PlannerOutcome | undefined | Promise<PlannerOutcome> {
  const { tool, args, source, reply, startedAt, remarks } = started;
  const { endedAt } = result;
  run.state.hops += 1;
  run.state.usage.costUsd += tool.costUsd ?? 0;
  const action: PlannerAction = { next_node: tool.name, args };
  if (result.ok && result.held !== undefined) {
    const hold = {
      stage: "tool_result" as const,
      action,
      source,
      observation: result.observation,
      startedAt,
      endedAt,
    };
    return holdToolResult(run, result.held, reply === undefined ? hold : { ...hold, reply });
  }
  if (result.ok) {
    run.recordStep({ action, source, observation: result.observation, startedAt, endedAt, reply, remarks });
  } else run.recordStep({ action, source, failure: result.failure, startedAt, endedAt, reply, remarks });
  const observed = run.events.enabled
    ? redactText(
        createObsSummary(
          result.ok
            ? { tool: tool.name, observation: result.observation }
            : { tool: tool.name, failure: result.failure },
        ),
        run.secrets,
      )
    : undefined;
  emitReasoning(run, { phase: "obs", summary: observed, at: { ts: endedAt, step: started.step } });
  if (source === "auto_seq") recordAutoSeqExecuted(run, tool.name);
  if (!result.ok && result.cancelled) return run.finishCancelled();
  return undefined;
}

/** `[Act]` before a tool, `[Obs]` after it (docs/native-reasoning.md); the summary is only built when someone listens. */
export function emitReasoning(
  run: RunContext,
  input: { phase: "act" | "obs"; summary: string | undefined; at: EventAt },
): void {
  if (input.summary === undefined) return run.events.skip();
  run.events.emitAt("reasoning", { phase: input.phase, summary: input.summary }, input.at);
}
