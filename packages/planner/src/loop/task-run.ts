import { READ_ONLY_SIDE_EFFECTS } from "@waddle/protocol";
import { PlannerError } from "../errors/planner-error.js";
import { buildContextCapsule } from "../tasks/context-capsule.js";
import type { PlannerOutcome, RecoverOptions, RunOptions } from "../run/run-types.js";
import type { PlannerConfig } from "./planner-config.js";
import { PlannerRun } from "./planner-run.js";
import { getForkConfig } from "./steps/fork-config.js";
import { recoverRun } from "./steps/recover-run.js";
import { runToolJob, type ToolJob } from "./tool-job.js";

/** One background task run on its own (a host's job): a sub-agent's query, or one tool with its args. */
export interface BackgroundJob {
  taskId: string;
  mode: "subagent" | "tool";
  query?: string;
  tool?: string;
  toolArgs?: Record<string, unknown>;
}

export interface TaskRunOptions extends RunOptions {
  /** The task's time limit; default the agent's `tasks.timeoutS`. Past it the run fails (`task_timeout`). */
  timeoutMs?: number;
}

export interface TaskRecoverOptions extends RecoverOptions {
  timeoutMs?: number;
}

/**
 * Runs a background task as a run of its own (docs/background-tasks.md, "Tasks with a host"): a
 * `subagent` job is a forked planner (the parent's tools, hints and models, no tasks of its own) that
 * finishes with its ContextCapsule as `artifacts.task_result`; a `tool` job is one tool call whose output
 * is the `task_result`. A pause fails it (`subagent_paused`), and so does its time limit (`task_timeout`).
 */
export function runTaskJob(
  config: PlannerConfig,
  job: BackgroundJob,
  options: TaskRunOptions = {},
): Promise<PlannerOutcome> {
  const { timeoutMs, ...runOptions } = options;
  const limit = createTaskLimit(config, runOptions.signal, timeoutMs);
  const run = new PlannerRun(
    getForkConfig(config),
    { query: getTaskQuery(job) },
    {
      ...runOptions,
      signal: limit.signal,
    },
  );
  limit.watch(run);
  setTaskMode(run, job);
  const outcome = job.mode === "subagent" ? run.execute() : runToolJob(run, getToolJob(job));
  return outcome.finally(limit.dispose);
}

/**
 * Continues a task run whose worker stopped: a sub-agent from its last checkpoint (`ReactPlanner.recover`:
 * an in-flight write, external or stateful call would need a person, so the task fails with
 * `subagent_paused`), else from the start; a tool job runs again only when the tool is `pure` or `read`,
 * otherwise it fails with `task_interrupted` (it may or may not have taken effect).
 */
export function recoverTaskJob(
  config: PlannerConfig,
  job: BackgroundJob,
  checkpoint: unknown,
  options: TaskRecoverOptions = {},
): Promise<PlannerOutcome> {
  const { timeoutMs, lastSeq, ...rest } = options;
  const limit = createTaskLimit(config, rest.signal, timeoutMs);
  const runOptions: RunOptions = { ...rest, signal: limit.signal };
  let outcome: Promise<PlannerOutcome>;
  if (job.mode === "subagent" && checkpoint !== undefined && checkpoint !== null) {
    outcome = recoverRun({
      checkpoint,
      options: { ...runOptions, ...(lastSeq === undefined ? {} : { lastSeq }) },
      restore: (state, restored) => {
        const run = new PlannerRun(getForkConfig(config), { state }, restored);
        limit.watch(run);
        setTaskMode(run, job);
        return run;
      },
    });
  } else {
    const run = new PlannerRun(getForkConfig(config), { query: getTaskQuery(job) }, runOptions);
    run.state.seq = Math.max(run.state.seq, lastSeq ?? 0);
    limit.watch(run);
    setTaskMode(run, job);
    if (job.mode === "subagent") outcome = run.execute();
    else {
      const tool = config.catalog.get(job.tool ?? "");
      const rerun = tool === undefined || READ_ONLY_SIDE_EFFECTS.has(tool.sideEffects);
      run.events.emit("run_recovered", {
        message: rerun
          ? "The task continues on another worker and runs its tool again."
          : `The task's call to ${job.tool} (${tool?.sideEffects}) was interrupted: it may or may not have taken effect, so it is not run again.`,
        checkpointSeq: lastSeq ?? 0,
        ...(tool === undefined
          ? {}
          : { interrupted: { tool: tool.name, sideEffects: tool.sideEffects }, rerun }),
      });
      if (!rerun && run.taskMode !== undefined) {
        run.taskMode.stopFailure = new PlannerError(
          "task_interrupted",
          `The worker running ${job.tool} (${tool?.sideEffects}) stopped before it returned; it is not run again ` +
            "without a person. Call it in the foreground if it is still needed.",
        );
        limit.abort();
      }
      outcome = runToolJob(run, getToolJob(job), { recovered: true });
    }
  }
  return outcome.finally(limit.dispose);
}

function getTaskQuery(job: BackgroundJob): string {
  if (job.mode === "subagent") return job.query ?? "";
  return `Background task: run ${job.tool ?? "a tool"}`;
}

function getToolJob(job: BackgroundJob): ToolJob {
  return { taskId: job.taskId, tool: job.tool ?? "", toolArgs: job.toolArgs ?? {} };
}

/** A sub-agent finishes with its ContextCapsule (never its transcript) as `artifacts.task_result`. */
function setTaskMode(run: PlannerRun, job: BackgroundJob): void {
  run.taskMode =
    job.mode === "subagent"
      ? {
          toTaskResult: (payload) => {
            const todos = run.state.todos;
            return buildContextCapsule({
              goal: job.query ?? run.state.query,
              answer: payload,
              steps: run.state.steps,
              ...(todos !== undefined && todos.revision > 0 ? { todos } : {}),
            });
          },
        }
      : {};
}

/** The task's own signal: the caller's cancel, or its time limit (which fails the run with `task_timeout`). */
function createTaskLimit(
  config: PlannerConfig,
  parent: AbortSignal | undefined,
  timeoutMs: number | undefined,
) {
  const controller = new AbortController();
  const limitMs = timeoutMs ?? config.options.tasks.timeoutS * 1_000;
  const onParentAbort = () => controller.abort(parent?.reason);
  if (parent?.aborted === true) controller.abort(parent.reason);
  else parent?.addEventListener("abort", onParentAbort, { once: true });
  let run: PlannerRun | undefined;
  const timer = setTimeout(() => {
    if (run?.taskMode !== undefined) {
      run.taskMode.stopFailure = new PlannerError(
        "task_timeout",
        `The task ran longer than ${Math.round(limitMs / 1_000)} s (tasks.timeoutS) and was stopped.`,
      );
    }
    controller.abort(new Error("task timed out"));
  }, limitMs);
  timer.unref?.();
  return {
    signal: controller.signal,
    watch: (watched: PlannerRun) => {
      run = watched;
    },
    abort: () => controller.abort(new Error("task interrupted")),
    dispose: () => {
      clearTimeout(timer);
      parent?.removeEventListener("abort", onParentAbort);
    },
  };
}
