import type { FinalPayload, FinishReason } from "@waddle/protocol";
import { PlannerError } from "../../errors/planner-error.js";
import type { GuardOutcome, GuardStop, GuardVerdictData } from "../../guards/guard-engine.js";
import { createFailure, type GuardHold } from "../../run/run-state.js";
import type { PlannerOutcome } from "../../run/run-types.js";
import type { RunEventEmitter } from "../../run/run-event-emitter.js";
import type { RunContext } from "../run-context.js";
import { fitAnswerSchema } from "./answer-contract.js";

/**
 * Output guards (docs/guides/guardrails.md): every answer of the run passes through here on its way to
 * `finish`. With none, it finishes at once; with some, `guard_checking` says the answer is held, the guards
 * run, and the answer (masked by `redact` guards) finishes the run, or a block fails it with
 * `guard_blocked`, or a pause holds it for a person. A cancelled run is not checked: it has no answer.
 */
export function deliverAnswer(
  run: RunContext,
  reason: FinishReason,
  given: FinalPayload,
): PlannerOutcome | Promise<PlannerOutcome> {
  const payload = fitAnswerSchema(run, reason, given);
  const guards = run.config.guards;
  if (guards === undefined || reason === "cancelled" || !guards.has("output"))
    return run.finish(reason, payload);
  return guardAnswer(run, reason, payload);
}

async function guardAnswer(
  run: RunContext,
  reason: FinishReason,
  payload: FinalPayload,
): Promise<PlannerOutcome> {
  const guards = run.config.guards;
  if (guards === undefined) return run.finish(reason, payload);
  run.events.emit("guard_checking", { on: "output", guards: guards.names("output") });
  const outcome = await guards.apply("output", payload.data ?? payload.answer, {
    cancellation: run.cancellation,
  });
  reportGuardUsage(run, outcome);
  emitVerdicts(run.events, outcome.verdicts);
  const guarded = withOutputValue(payload, outcome.value);
  if (outcome.decision === "pass") return run.finish(reason, guarded);
  return stopOrPause(run, outcome, { stage: "output", reason, payload: guarded });
}

/** The input guards' decision on a new run, after `run_started`: go on, fail, or pause for a person. */
export function applyInputGuards(
  run: RunContext,
  outcome: GuardOutcome,
): Promise<PlannerOutcome> | undefined {
  reportGuardUsage(run, outcome);
  emitVerdicts(run.events, outcome.verdicts);
  if (outcome.decision === "pass") return undefined;
  return stopOrPause(run, outcome, { stage: "input" });
}

/** A tool result a guard holds for a person: the step is recorded once they decide. */
export function holdToolResult(
  run: RunContext,
  stop: GuardStop,
  hold: Extract<GuardHold, { stage: "tool_result" }>,
): Promise<PlannerOutcome> | undefined {
  if (run.config.options.pauseEnabled === false) {
    recordBlockedResult(run, hold, `${stop.message} (this run cannot pause for a person to review it)`);
    return undefined;
  }
  run.state.guardHold = hold;
  return run.pause({ reason: "guard", kind: "guard", payload: toPausePayload(stop) });
}

/** A person decided on a guard's pause: the held query, result or answer goes on, or is stopped. */
export function resumeGuardHold(
  run: RunContext,
  reject: boolean,
  note: string | undefined,
): PlannerOutcome | undefined {
  const hold = run.state.guardHold;
  delete run.state.guardHold;
  if (hold === undefined) return undefined;
  const refused = `A person refused it after a guard held it${note === undefined ? "" : ` (${note})`}.`;
  switch (hold.stage) {
    case "input":
      if (reject)
        throw new PlannerError("guard_blocked", `The request was not run: ${refused}`, {
          details: { on: "input" },
        });
      return undefined;
    case "tool_result":
      if (reject) recordBlockedResult(run, hold, `This result was withheld: ${refused}`);
      else {
        const { action, source, observation, startedAt, endedAt, reply } = hold;
        run.recordStep({ action, source: source, observation, startedAt, endedAt, reply });
      }
      return undefined;
    case "output":
      if (reject)
        throw new PlannerError("guard_blocked", `The answer was withheld: ${refused}`, {
          details: { on: "output" },
        });
      return run.finish(hold.reason, hold.payload);
  }
}

/** What `llm` checks' judges cost joins the run's usage (and its budgets), as `llm_call` purpose `guard`. */
function reportGuardUsage(run: RunContext, outcome: GuardOutcome): void {
  for (const usage of outcome.usage) run.toolRuntime.reportUsage(usage, run.state.steps.length);
}

function emitVerdicts(events: RunEventEmitter, verdicts: readonly GuardVerdictData[]): void {
  for (const data of verdicts) events.emit("guard_verdict", data, data.step);
}

/** The error a blocked query or answer fails its run with: what the guard found, never the text. */
function createGuardBlocked(stop: GuardStop): PlannerError<"guard_blocked"> {
  return new PlannerError("guard_blocked", stop.message, {
    details: { guard: stop.guard, on: stop.on, findings: stop.findings },
  });
}

function stopOrPause(run: RunContext, outcome: GuardOutcome, hold: GuardHold): Promise<PlannerOutcome> {
  const stop = outcome.stop;
  if (stop === undefined)
    throw new PlannerError("internal_error", "A guard stopped the run without saying which.");
  if (outcome.decision === "block" || run.config.options.pauseEnabled === false)
    throw createGuardBlocked(stop);
  run.state.guardHold = hold;
  return run.pause({ reason: "guard", kind: "guard", payload: toPausePayload(stop) });
}

/** What the inbox shows: the guard, where, what it found by kind, and what to decide. Never the text. */
function toPausePayload(stop: GuardStop): Record<string, unknown> {
  const subject =
    stop.on === "input"
      ? "the request"
      : stop.on === "output"
        ? "the answer"
        : `${stop.tool ?? "a tool"}'s result`;
  return {
    guard: stop.guard,
    on: stop.on,
    ...(stop.tool === undefined ? {} : { tool: stop.tool }),
    findings: stop.findings,
    message: `${stop.message} Approve to let ${subject} through as it is, reject to stop it.`,
  };
}

function recordBlockedResult(
  run: RunContext,
  hold: Extract<GuardHold, { stage: "tool_result" }>,
  message: string,
): void {
  const { action, source, startedAt, endedAt, reply } = hold;
  const failure = createFailure({
    node: action.next_node,
    args: action.args,
    errorCode: "guard_blocked",
    message,
    suggestion: "Do not rely on this result: use another tool, or answer with what you have.",
  });
  run.recordStep({ action, source, failure, startedAt, endedAt, reply });
}

/** The answer as the guards left it: a masked object stays the answer's data, its JSON the text. */
function withOutputValue(payload: FinalPayload, value: unknown): FinalPayload {
  if (payload.data !== undefined) {
    if (value === payload.data) return payload;
    if (typeof value === "object" && value !== null && !Array.isArray(value)) {
      return { ...payload, data: value as Record<string, unknown>, answer: JSON.stringify(value) };
    }
    // A check that cut the object to text (max_length): the text is all that is left.
    const { data: _dropped, ...rest } = payload;
    return { ...rest, answer: typeof value === "string" ? value : JSON.stringify(value) };
  }
  if (value === payload.answer) return payload;
  return { ...payload, answer: typeof value === "string" ? value : JSON.stringify(value) };
}
