import { parseJson, type PlannerAction } from "@waddle/protocol";
import { checkAction } from "../../actions/action-checker.js";
import { createFallbackPayload } from "../../run/final-payload.js";
import type { PauseRecord } from "../../run/paused-state.js";
import { PlannerError } from "../../errors/planner-error.js";
import type { RunContext } from "../run-context.js";
import { getRejectionText } from "../../actions/rejections.js";
import { createFailure, type QueuedAction } from "../../run/run-state.js";
import { getFieldInfo } from "../../actions/placeholders.js";
import type { PlannerOutcome, ResumeOptions } from "../../run/run-types.js";
import { settleHeldMerge } from "./task-results.js";
import { parseTaskAction } from "../../tasks/task-spawn.js";
import { isPlannerError } from "../../errors/planner-error.js";
import { finishStuckRejected } from "./stuck-step.js";
import { deliverAnswer, resumeGuardHold } from "./guard-steps.js";

const EDITABLE = new Set<PauseRecord["kind"]>(["tool_approval", "tool_pause", "task_spawn", "arg_input"]);

/**
 * Checks a person's decision against what the run waits for, before the token is spent: `edit` needs a
 * paused call and args that validate (tool schema, hints; task args). Returns the edited action, if any.
 * Throws `invalid_resume` with what to send instead.
 */
export function checkResumeDecision(
  run: RunContext,
  paused: PauseRecord,
  options: ResumeOptions,
): PlannerAction | undefined {
  if (paused.kind === "arg_input" && options.decision === "approve")
    return fillMissingArgs(run, paused, options);
  if (options.decision !== "edit") return undefined;
  const action = paused.action;
  if (action === undefined || !EDITABLE.has(paused.kind)) {
    throw invalidResume(
      `This pause (${paused.reason}) has no call whose args could be edited: approve or reject it.`,
    );
  }
  if (options.args === undefined) {
    throw invalidResume(`decision "edit" needs args: the new args of ${action.next_node}.`);
  }
  const edited: PlannerAction = { next_node: action.next_node, args: options.args };
  if (paused.kind === "task_spawn") {
    try {
      parseTaskAction({ next_node: action.next_node as "task.subagent" | "task.tool", args: options.args });
    } catch (error) {
      if (isPlannerError(error)) throw invalidResume(error.message);
      throw error;
    }
    return edited;
  }
  const result = checkAction(edited, run.checkContext(true));
  if (!result.ok) {
    throw invalidResume(
      `The edited args of ${action.next_node} are refused: ${getRejectionText(result.rejection)}`,
    );
  }
  return result.checked.kind === "tool" ? { next_node: action.next_node, args: result.checked.args } : edited;
}

/**
 * `approve` on an arg-fill the model could not complete (`arg_input`): `userInput` is the missing field's
 * value (typed by its schema), or a JSON object of the fields when several are missing. The completed call
 * is checked like an edit; throws `invalid_resume` with what to send instead.
 */
function fillMissingArgs(run: RunContext, paused: PauseRecord, options: ResumeOptions): PlannerAction {
  const action = paused.action;
  if (action === undefined) throw invalidResume("This pause has no call to complete: reject it.");
  const missing = Array.isArray(paused.payload.missing)
    ? paused.payload.missing.filter((field): field is string => typeof field === "string")
    : [];
  const input = options.userInput?.trim();
  if (input === undefined || input.length === 0) {
    throw invalidResume(
      `${action.next_node} waits for ${missing.join(", ") || "its args"}: approve with userInput holding ` +
        `${missing.length > 1 ? "a JSON object of them" : "the value"}, edit with the whole args, or reject.`,
    );
  }
  const parsed = parseJson(input);
  const tool = run.config.catalog.get(action.next_node);
  let fields: Record<string, unknown>;
  if (missing.length === 1 && !(parsed.ok && isRecord(parsed.value) && missing[0]! in parsed.value)) {
    const type = tool === undefined ? undefined : getFieldInfo(tool.argsSchema, missing[0]!).type;
    fields = { [missing[0]!]: type === "string" || type === undefined || !parsed.ok ? input : parsed.value };
  } else if (parsed.ok && isRecord(parsed.value)) fields = parsed.value;
  else {
    throw invalidResume(
      `Several args are missing (${missing.join(", ")}): send userInput as a JSON object of them.`,
    );
  }
  const completed: PlannerAction = { next_node: action.next_node, args: { ...action.args, ...fields } };
  const result = checkAction(completed, run.checkContext(true));
  if (!result.ok) {
    throw invalidResume(
      `The args of ${action.next_node} are still refused: ${getRejectionText(result.rejection)}`,
    );
  }
  return result.checked.kind === "tool"
    ? { next_node: action.next_node, args: result.checked.args }
    : completed;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Applies the decision to a restored run, after `resumed`: an approved (or edited) call is queued to run
 * as is — through the same checks and events, the approval gate letting it through; a rejected one
 * becomes a failure observation the LLM re-plans from; held task results are merged or discarded.
 */
export function applyResumeDecision(input: {
  run: RunContext;
  paused: PauseRecord;
  options: ResumeOptions;
  edited: PlannerAction | undefined;
}): PlannerOutcome | Promise<PlannerOutcome> | undefined {
  const { run, paused, options, edited } = input;
  const { state } = run;
  const reject = options.decision === "reject";
  switch (paused.kind) {
    case "tool_approval":
    case "task_spawn":
    case "tool_pause": {
      const action = paused.action;
      if (action === undefined) return undefined;
      if (reject) return void recordRejection(run, action, paused.kind, options.userInput);
      // The paused iteration was counted when it began; running its call now completes it.
      state.iteration = Math.max(0, state.iteration - 1);
      const queued: QueuedAction = { action: edited ?? action, source: "resume", approved: true };
      const note = options.userInput?.trim();
      if (paused.kind !== "tool_pause" && note !== undefined && note.length > 0) {
        // docs/pause-resume.md: the model reads the note beside the call's result, the tool in its context.
        queued.remarks = {
          approval: `${edited === undefined ? "approved" : "edited and approved"} by a person, note: ${note}`,
        };
        queued.approvalNote = note;
      }
      if (paused.kind !== "tool_pause") state.pendingActions.unshift(queued);
      else {
        const resumeInput = {
          decision: options.decision,
          ...(options.userInput === undefined ? {} : { userInput: options.userInput }),
          ...(edited === undefined ? {} : { args: edited.args }),
          pausePayload: paused.payload,
        };
        state.pendingActions.unshift({ ...queued, resumeInput });
      }
      return undefined;
    }
    case "constraints": {
      if (reject) {
        const message = "A person chose not to continue past the conflicting planning hints.";
        return deliverAnswer(run, "no_path", createFallbackPayload({ message, steps: state.steps }));
      }
      state.conflictsAcknowledged = true;
      if (options.userInput !== undefined) recordUserInput(run, options.userInput);
      return undefined;
    }
    case "task_merge": {
      if (paused.merge !== undefined) settleHeldMerge(run, paused.merge, reject ? "discard" : "apply");
      return undefined;
    }
    case "stuck":
      return reject ? finishStuckRejected(run, options.userInput?.trim() || undefined) : undefined;
    case "guard":
      return resumeGuardHold(run, reject, options.userInput?.trim() || undefined);
    case "arg_input": {
      const action = paused.action;
      if (action === undefined) return undefined;
      if (reject) return void recordRejection(run, action, paused.kind, options.userInput);
      // The pause came before the call's iteration began, and the gate still applies to the call.
      state.pendingActions.unshift({ action: edited ?? action, source: "resume" });
      return undefined;
    }
  }
}

function recordRejection(
  run: RunContext,
  action: PlannerAction,
  kind: PauseRecord["kind"],
  userInput: string | undefined,
): void {
  const what =
    kind === "tool_pause"
      ? "A person declined to answer this call"
      : kind === "task_spawn"
        ? "A person rejected starting this task"
        : kind === "arg_input"
          ? "A person declined to give the missing args of this call"
          : "A person rejected this call";
  const failure = createFailure({
    node: action.next_node,
    args: action.args,
    errorCode: "rejected_by_user",
    message: userInput === undefined ? `${what}.` : `${what}: ${userInput}`,
    suggestion: "Do not repeat it as is: choose another way, or answer with what you have.",
  });
  run.recordStep({ action, source: "resume", failure });
}

function recordUserInput(run: RunContext, userInput: string): void {
  run.recordStep({
    action: { next_node: "user_input", args: {} },
    source: "resume",
    observation: { user_input: userInput },
    note: true,
  });
}

function invalidResume(message: string): PlannerError {
  return new PlannerError("invalid_resume", message);
}
