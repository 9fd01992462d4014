import type { ForkEdit, RunEvent } from "@waddle/protocol";
import { PlannerError } from "../../errors/planner-error.js";
import type { CallRecord, CallReplay, RunCalls } from "../../run/call-record.js";
import type { RunState } from "../../run/run-state.js";
import type { PlannerOutcome, RunOptions } from "../../run/run-types.js";
import { getRecordedSteps, rebuildRunState } from "../../replay/rebuild-run-state.js";
import type { PlannerConfig } from "../planner-config.js";
import type { RestoredRun } from "./resume-run.js";
import { getRunStartedData } from "../run-setup.js";

/** What `ReactPlanner.fork` continues from: an earlier run's record, cut at `fromStep`. */
export interface ForkInput {
  /** The step the fork starts at: steps before it are not executed again. */
  fromStep: number;
  /** The earlier run's query (or the new one of a `query` edit). */
  query: string;
  contextMeta?: Record<string, unknown>;
  /** The earlier run's records (`RunCalls.record`): its steps before `fromStep` rebuild the state. */
  records: readonly CallRecord[];
  /**
   * The earlier run's events before `fromStep` as the host stored them for the fork (`replayed: true`):
   * usage, todos and action numbers come from them, and the fork's events follow their last `seq`.
   */
  events: readonly RunEvent[];
  edit?: ForkEdit;
}

/**
 * `ReactPlanner.fork`: rebuilds the state after the prefix from its records and continues from
 * `fromStep`, with the edit applied there: a new observation is served in place of the step's tool call,
 * new args run the step's tool, a written reply stands in for the model's next planning reply. From step
 * 0 it is a new run (with the edited query). Calls after the fork point go through `options.calls`.
 */
export function forkRun(input: {
  config: PlannerConfig;
  fork: ForkInput;
  options: RunOptions;
  start: (query: string, options: RunOptions) => Promise<PlannerOutcome>;
  restore: (state: RunState, options: RunOptions) => RestoredRun;
}): Promise<PlannerOutcome> {
  const { config, fork } = input;
  const { edit, fromStep } = fork;
  const calls: RunCalls = { ...input.options.calls };
  if (edit?.kind === "llm_reply") calls.nextReply = edit.value;
  const steps = getRecordedSteps(fork.records);
  const target = steps[fromStep];
  if (edit?.kind === "observation" && target !== undefined) {
    calls.replay = withObservation(calls.replay, { tool: target.step.next_node, observation: edit.value });
  }
  const options: RunOptions = { ...input.options, calls };
  const editsCall = edit?.kind === "args" || edit?.kind === "observation";
  // From step 0 with nothing to change in a call, the fork is a new run (of the edited query, if any).
  if (fromStep === 0 && !editsCall) {
    return input.start(edit?.kind === "query" ? edit.value : fork.query, options);
  }
  const prefix = steps.slice(0, fromStep);
  const missing = prefix.findIndex((step) => step === undefined);
  if (prefix.length < fromStep || missing >= 0) {
    const index = missing >= 0 ? missing : prefix.length;
    throw new PlannerError(
      "invalid_fork",
      `The run's record has no step ${index}: it cannot be forked after it.`,
    );
  }
  const state = rebuildRunState({
    runId: options.runId ?? config.createId(),
    query: fork.query,
    ...(fork.contextMeta === undefined ? {} : { contextMeta: fork.contextMeta }),
    startedAt: config.clock(),
    ...(config.options.deadlineS === undefined ? {} : { deadlineS: config.options.deadlineS }),
    prefix,
    events: fork.events,
    todosEnabled: config.writeTodosTool !== undefined,
  });
  const keys = Object.keys(options.toolContext ?? {}).sort();
  if (keys.length > 0) state.toolContextKeys = keys;
  const run = input.restore(state, options);
  return run.continue(() => {
    // A fork of step 0 copied nothing: it starts as a run does.
    if (fromStep === 0) run.events.emit("run_started", getRunStartedData(run));
    if (target === undefined || (edit?.kind !== "args" && edit?.kind !== "observation")) return undefined;
    const { step } = target;
    const source = step.source === "llm" ? "system" : step.source;
    const args = edit.kind === "args" ? edit.value : step.args;
    // An observation edit: the call is not made, so no person needs to approve it.
    run.state.pendingActions.unshift({
      action: { next_node: step.next_node, args },
      source,
      reason: edit.kind === "args" ? "fork: edited args" : "fork: edited observation",
      ...(edit.kind === "observation" ? { approved: true } : {}),
    });
    return undefined;
  });
}

/** Serves `observation` for the first call of `tool`, then defers to `replay`. */
function withObservation(
  replay: CallReplay | undefined,
  edited: { tool: string; observation: unknown },
): CallReplay {
  let served = false;
  return {
    ...replay,
    tool(query) {
      if (!served && query.tool === edited.tool) {
        served = true;
        return { observation: structuredClone(edited.observation), edited: true };
      }
      return replay?.tool?.(query);
    },
  };
}
