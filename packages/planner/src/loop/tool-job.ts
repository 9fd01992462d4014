// A `task.tool` background task as a run of its own (docs/background-tasks.md, "Tasks with a host").
import { FinalPayload, type PlannerAction } from "@waddle/protocol";
import { PlannerError } from "../errors/planner-error.js";
import type { PlannerOutcome } from "../run/run-types.js";
import { executeToolCall } from "../tools/tool-executor.js";
import { isToolPauseSignal } from "../tools/tool-pause-signal.js";
import type { PlannerRun } from "./planner-run.js";
import { getRunStartedData } from "./run-setup.js";

/** The one call a tool task makes: its tool, its args, and the task's id as the call's id. */
export interface ToolJob {
  taskId: string;
  tool: string;
  toolArgs: Record<string, unknown>;
}

/**
 * A `task.tool` task as a run of its own: `run_started` (unless `recovered`), the one tool call (its events
 * in this run's stream, its retries and timeout), and `run_finished` with the tool's output as
 * `artifacts.task_result` — or `run_failed` with the tool's error.
 */
export async function runToolJob(
  run: PlannerRun,
  job: ToolJob,
  options: { recovered?: boolean } = {},
): Promise<PlannerOutcome> {
  if (options.recovered !== true) run.events.emit("run_started", getRunStartedData(run));
  try {
    // Stopped before the call (a recovery that must not run it again): it never starts.
    if (run.signal.aborted) throw new PlannerError("cancelled", "The task was stopped before its call.");
    const tool = run.config.catalog.get(job.tool);
    if (tool === undefined || tool === run.config.writeTodosTool) {
      throw new PlannerError(
        "invalid_action",
        `task.tool names "${job.tool}", which is not a tool of this agent.`,
      );
    }
    const args = tool.args.safeParse(job.toolArgs);
    if (!args.success) {
      throw new PlannerError(
        "invalid_args",
        `tool_args did not validate for ${tool.name}: ${args.error.issues[0]?.message ?? "invalid"}.`,
      );
    }
    const toolArgs = args.data as Record<string, unknown>;
    const action: PlannerAction = { next_node: tool.name, args: toolArgs };
    run.state.iteration += 1;
    const result = await executeToolCall(run.toolRuntime, {
      tool,
      args: toolArgs,
      step: 0,
      callId: job.taskId,
      source: "system",
    });
    if (run.signal.aborted) {
      if (run.taskMode?.stopFailure !== undefined) throw run.taskMode.stopFailure;
      return run.finishCancelled();
    }
    if (!result.ok) throw new PlannerError<string>(result.failure.error_code, result.failure.message);
    run.recordStep({ action, source: "system", observation: result.observation });
    const shown = JSON.stringify(run.events.preview(result.observation)) ?? "null";
    const answer = `${tool.name} returned: ${shown.length > 600 ? `${shown.slice(0, 600)}…` : shown}`;
    run.taskMode = { ...run.taskMode, toTaskResult: () => result.observation };
    return run.finish("answer_complete", FinalPayload.parse({ answer }));
  } catch (error) {
    if (isToolPauseSignal(error)) {
      throw run.fail(
        new PlannerError(
          "subagent_paused",
          `${job.tool} asked to pause (${error.reason}): a background task cannot wait for a person; call it in the foreground.`,
        ),
      );
    }
    return run.endAfterError(error);
  } finally {
    run.cancellation.dispose();
  }
}
