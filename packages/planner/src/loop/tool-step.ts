import type { ActionSource, PlannerAction } from "@waddle/protocol";
import type { ActionDecision } from "../run/decision.js";
import type { CheckedAction } from "../actions/action-checker.js";
import { recordAutoSeqExecuted } from "../auto-seq/auto-seq-runner.js";
import type { CatalogTool } from "../catalog/catalog.js";
import { redactText } from "../secrets/redact-text.js";
import type { RunContext } from "../run/run-context.js";
import type { EventAt } from "../run/run-event-emitter.js";
import { createActSummary, createObsSummary } from "../trajectory/reflection.js";
import type { PlannerOutcome } from "../run/run-types.js";
import { runWriteTodos } from "../todos/todos-step.js";
import { executeToolCall } from "../tools/tool-executor.js";
import type { ToolCall, ToolCallResult } from "../tools/tool-runtime.js";
import { isToolPauseSignal } from "../tools/tool-pause-signal.js";

type ToolCheck = Extract<CheckedAction, { kind: "tool" }>;

/** A started tool call: what the step records once its result is in. */
interface StartedTool {
  tool: CatalogTool;
  args: Record<string, unknown>;
  source: ActionSource;
  reply: string | undefined;
  step: number;
  startedAt: number;
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

/** A tool that called `ctx.pause()` pauses the run; anything else thrown is a bug and fails it. */
function pauseOrThrow(run: RunContext, started: StartedTool, error: unknown): Promise<PlannerOutcome> {
  if (!isToolPauseSignal(error)) throw error;
  const { tool, args } = started;
  return run.pause({
    reason: error.reason,
    kind: "tool_pause",
    payload: { ...error.payload, tool: tool.name, args },
    action: { next_node: tool.name, args },
  });
}

/** Records the step and its `[Obs]`; a cancelled call finishes the run. */
function finishTool(
  run: RunContext,
  started: StartedTool,
  result: ToolCallResult,
): PlannerOutcome | undefined {
  const { tool, args, source, reply, startedAt } = started;
  const { endedAt } = result;
  run.state.hops += 1;
  run.state.usage.costUsd += tool.costUsd ?? 0;
  const action: PlannerAction = { next_node: tool.name, args };
  if (result.ok) {
    run.recordStep({ action, source, observation: result.observation, startedAt, endedAt, reply });
  } else run.recordStep({ action, source, failure: result.failure, startedAt, endedAt, reply });
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

/** Hop budget, cost ceiling and deadline, checked before any tool runs. */
export function checkToolBudgets(
  run: RunContext,
  costUsd: number,
  calls: number,
): PlannerOutcome | undefined {
  const { hopBudget } = run.config.options;
  if (hopBudget !== undefined && run.state.hops + calls > hopBudget) {
    return run.finishByConstraint("hop_budget", `The hop budget of ${hopBudget} tool calls is used up.`);
  }
  const maxCost = run.config.hints.maxCostUsd;
  if (maxCost !== undefined && costUsd > 0 && run.state.usage.costUsd + costUsd > maxCost) {
    return run.finishByConstraint(
      "cost_budget",
      `The next tool calls would pass the cost ceiling of $${maxCost}.`,
    );
  }
  if (run.isPastDeadline())
    return run.finishByConstraint(
      "deadline",
      `The deadline of ${run.config.options.deadlineS ?? 0} s has passed.`,
    );
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
