import { TaskToolArgs, type PlannerAction, type ToolFailure } from "@waddle/protocol";
import type { ActionDecision } from "../decision.js";
import type { OpcodeResult, TaskOpcode } from "../../tasks/opcode-handlers.js";
import { isPlannerError } from "../../errors/planner-error.js";
import type { RunContext } from "../run-context.js";
import { formatIssues } from "../../util/format-issues.js";
import { createFailure } from "../../run/run-state.js";
import type { PlannerOutcome } from "../../run/run-types.js";
import { TaskError } from "../../errors/task-error.js";
import { recordGroupPoll } from "./task-results.js";

/**
 * A `task.subagent` / `task.tool` action. With `tasks.enabled` (and no custom opcode handler) it spawns a
 * background task: after a confirmation pause when `spawnRequiresConfirmation` is true, with the tool of a
 * `task.tool` checked first (it must exist, be allowed, need no approval and get valid args). With
 * `retain_turn` the foreground waits for the task or its group before the next step.
 */
export async function runTask(
  run: RunContext,
  decision: ActionDecision,
): Promise<PlannerOutcome | undefined> {
  const opcode = decision.action.next_node as TaskOpcode;
  const { tasks } = run.config.options;
  if (!tasks.enabled || run.config.customOpcodeHandlers) return runOpcodeHandler(run, decision, opcode);
  const startedAt = run.config.clock();
  const record = (result: OpcodeResult) =>
    run.recordStep({
      action: decision.action,
      source: decision.source,
      startedAt,
      remarks: decision.remarks,
      ...result,
    });
  if (tasks.spawnRequiresConfirmation === true && decision.approved !== true) {
    // docs/pause-resume.md: with pauses off, a spawn nobody can confirm does not start.
    if (run.config.options.pauseEnabled === false) {
      const message =
        "Starting a background task needs a person's confirmation, and this run cannot pause to ask.";
      return void record({ failure: taskFailure(decision.action, "confirmation_unavailable", message) });
    }
    return run.pause({
      reason: "approval_required",
      kind: "task_spawn",
      action: decision.action,
      payload: {
        tool: opcode,
        args: decision.action.args,
        why: "spawn_requires_confirmation",
        message:
          "Start this background task? Approve to start it as proposed, edit its args to change it " +
          "(retain_turn: true keeps the turn until it is done), or reject to skip it.",
      },
    });
  }
  const prepared =
    opcode === "task.tool" ? prepareToolTask(run, decision.action) : { action: decision.action };
  if ("failure" in prepared) return void record(prepared);
  let spawned;
  try {
    spawned = await run.getTasks().spawn({ next_node: opcode, args: prepared.action.args });
  } catch (error) {
    if (!(error instanceof TaskError)) throw error;
    return void record({ failure: taskFailure(decision.action, error.code, error.message) });
  }
  record({
    observation: {
      taskId: spawned.taskId,
      status: spawned.status,
      ...(spawned.groupId === undefined ? {} : { groupId: spawned.groupId }),
      retain_turn: spawned.retainTurn,
      message: spawned.retainTurn
        ? "Started; the turn is kept until it is done (its results follow)."
        : run.config.options.tasks.enabled && run.tasks?.outlivesTurn === true
          ? "Started in the background; it goes on after this answer, and its results reach a later turn."
          : "Started in the background; its results will be added when they arrive.",
    },
  });
  if (!spawned.retainTurn) return undefined;
  await run.getTasks().waitFor(spawned);
  if (spawned.groupId !== undefined) {
    const group = run.getTasks().getGroup(spawned.groupId);
    // group_report "none" merges nothing by itself: the retained wait is the poll, so its result goes in.
    if (group?.report === "none") recordGroupPoll(run, group);
  }
  return undefined;
}

/** `task.tool`: the tool must be one the foreground could call without a person. */
function prepareToolTask(
  run: RunContext,
  action: PlannerAction,
): { action: PlannerAction } | { failure: ToolFailure } {
  const parsed = TaskToolArgs.safeParse(action.args);
  if (!parsed.success) return { action }; // the task manager reports invalid_task_args
  const { config } = run;
  const name = parsed.data.tool;
  const tool = config.catalog.get(name);
  if (tool === undefined || tool === config.writeTodosTool) {
    return { failure: taskFailure(action, "unknown_tool", `"${name}" is not a tool of this agent.`) };
  }
  if (config.hints.disallowed.has(name)) {
    return { failure: taskFailure(action, "disallowed_node", `${name} is disallowed (never call it).`) };
  }
  const gate = config.approvalGate({
    tool,
    args: parsed.data.tool_args,
    source: "llm",
    options: config.options,
    approved: false,
  });
  if (gate.pause) {
    const message = `${name} needs a person's approval: call it in the foreground, not as a background task.`;
    return { failure: taskFailure(action, "approval_in_background", message) };
  }
  const args = tool.args.safeParse(parsed.data.tool_args);
  if (!args.success) {
    const message = `tool_args did not validate for ${name}: ${formatIssues(args.error.issues)}.`;
    return { failure: taskFailure(action, "invalid_args", message) };
  }
  return { action: { next_node: action.next_node, args: { ...action.args, tool_args: args.data } } };
}

/** Custom handlers (`opcodeHandlers`), or the "not enabled" answer while `tasks.enabled` is false. */
async function runOpcodeHandler(
  run: RunContext,
  decision: ActionDecision,
  opcode: TaskOpcode,
): Promise<PlannerOutcome | undefined> {
  const startedAt = run.config.clock();
  let result: OpcodeResult;
  try {
    result = await run.config.opcodeHandlers[opcode]({
      action: decision.action,
      options: run.config.options,
      runId: run.state.runId,
      step: run.state.steps.length,
      signal: run.signal,
    });
  } catch (error) {
    if (!isPlannerError(error)) throw error;
    result = { failure: taskFailure(decision.action, error.code, error.message) };
  }
  run.recordStep({ action: decision.action, source: decision.source, startedAt, ...result });
  return undefined;
}

function taskFailure(action: PlannerAction, code: string, message: string) {
  return createFailure({
    node: action.next_node,
    args: action.args,
    errorCode: code,
    message,
    suggestion: "Fix the task args, or do the work with tool calls in this run.",
  });
}
