import type { Cancellation } from "./cancellation.js";
import type { PlannerConfig } from "./planner-config.js";
import type { RunEventEmitter } from "./run-event-emitter.js";
import type { RunState } from "./run-state.js";
import type { ToolRuntime } from "./tool-executor.js";

/** What the tool executor sees of a run: its ids, cancellation, events, injectables and observations. */
export function createToolRuntime(input: {
  config: PlannerConfig;
  state: RunState;
  toolContext: Readonly<Record<string, unknown>>;
  cancellation: Cancellation;
  events: RunEventEmitter;
  secrets: ReadonlySet<string>;
}): ToolRuntime {
  const { config, state } = input;
  const runtime: ToolRuntime = {
    runId: state.runId,
    query: state.query,
    toolContext: input.toolContext,
    cancellation: input.cancellation,
    events: input.events,
    clock: config.clock,
    random: config.random,
    sleep: config.sleep,
    options: config.options,
    secrets: input.secrets,
    observations: {
      // Read live: tools see the latest observation of the run, not the one at construction.
      get last() {
        return state.lastObservation;
      },
      byTool: state.observationsByTool,
    },
  };
  if (state.deadlineAt !== undefined) runtime.deadlineAt = state.deadlineAt;
  return runtime;
}
