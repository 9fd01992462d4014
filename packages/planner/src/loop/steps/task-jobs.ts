import { Cancellation } from "../../util/cancellation.js";
import { buildContextCapsule } from "../../tasks/context-capsule.js";
import { PlannerError } from "../../errors/planner-error.js";
import type { RunContext } from "../run-context.js";
import { RunEventEmitter } from "../../run/run-event-emitter.js";
import { createRunState, type RunState } from "../../run/run-state.js";
import type { PlannerOutcome, RunOptions } from "../../run/run-types.js";
import type { TaskJob } from "../../tasks/task-types.js";
import { executeToolCall } from "../../tools/tool-executor.js";
import { isToolPauseSignal } from "../../tools/tool-pause-signal.js";

/** A forked run's outcome, and its state for the capsule (steps, todos). */
export interface ForkedRun {
  outcome: PlannerOutcome;
  state: RunState;
}

/** Starts a forked run of the parent's planner (`task.subagent`) and waits for its outcome. */
export type StartForkedRun = (query: string, options: RunOptions) => Promise<ForkedRun>;

export interface TaskJobInput {
  run: RunContext;
  startFork: StartForkedRun;
  job: TaskJob;
  /** Aborted when the task is cancelled, times out, or the run is cancelled. */
  signal: AbortSignal;
  /** False once the parent run yielded: nothing more goes into its stream. */
  isOpen: () => boolean;
}

/** Runs one background job: a forked planner (`subagent`) or one tool call (`tool`). */
export function executeTaskJob(input: TaskJobInput): Promise<unknown> {
  return input.job.mode === "subagent" ? runSubagent(input) : runToolJob(input);
}

/**
 * A forked planner runs the query with the parent's tools and toolContext and hands back a
 * ContextCapsule, never its transcript (docs/background-tasks.md). Its LLM calls count in the parent's usage and appear
 * in the parent's stream as `llm_call {purpose: "subagent"}`; its other events stay its own.
 */
async function runSubagent(input: TaskJobInput): Promise<unknown> {
  const { run, job, signal } = input;
  const query = job.query ?? "";
  const { outcome, state } = await input.startFork(query, {
    runId: `${run.state.runId}/${job.taskId}`,
    toolContext: run.toolContext,
    signal,
    onEvent: (event) => {
      if (event.type === "llm_call" && input.isOpen()) run.llmCaller.recordSubagentCall(event.data);
    },
  });
  if (outcome.kind === "pause") {
    throw new PlannerError(
      "subagent_paused",
      `The subagent paused (${outcome.reason}): a background task cannot wait for a person. ` +
        "Do this step in the foreground instead.",
    );
  }
  if (outcome.reason === "cancelled") throw new PlannerError("cancelled", "The subagent was cancelled.");
  const todos = state.todos;
  return buildContextCapsule({
    goal: query,
    answer: outcome.payload,
    steps: state.steps,
    ...(todos !== undefined && todos.revision > 0 ? { todos } : {}),
  });
}

/** One tool call as a job: the tool's retries and timeout apply; its events stay out of the run's stream. */
async function runToolJob(input: TaskJobInput): Promise<unknown> {
  const { run, job, signal } = input;
  const tool = run.config.catalog.get(job.tool ?? "");
  if (tool === undefined) {
    throw new PlannerError("invalid_action", `task.tool names "${job.tool ?? ""}", which is not a tool.`);
  }
  const cancellation = new Cancellation(signal);
  const events = new RunEventEmitter({
    state: createRunState({ runId: run.state.runId, query: run.state.query, startedAt: 0 }),
    sink: undefined,
    clock: run.config.clock,
    secrets: run.secrets,
    previewChars: run.config.previewChars,
  });
  try {
    const result = await executeToolCall(
      { ...run.toolRuntime, cancellation, events },
      { tool, args: job.toolArgs ?? {}, step: run.state.steps.length, callId: job.taskId },
    );
    if (result.ok) return result.observation;
    throw new PlannerError<string>(result.failure.error_code, result.failure.message);
  } catch (error) {
    if (isToolPauseSignal(error)) {
      throw new PlannerError(
        "subagent_paused",
        `${tool.name} asked to pause (${error.reason}): call it in the foreground, where a person can answer.`,
      );
    }
    throw error;
  } finally {
    cancellation.dispose();
  }
}
