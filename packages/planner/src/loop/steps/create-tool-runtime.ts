import type { Cancellation } from "../../util/cancellation.js";
import type { PlannerConfig } from "../planner-config.js";
import type { RunEventEmitter } from "../../run/run-event-emitter.js";
import type { RunState } from "../../run/run-state.js";
import type { ToolRunContext } from "../../catalog/tool.js";
import type { ToolRuntime } from "../../tools/tool-runtime.js";
import { getWorkDeadlineAt } from "../budgets/deadline.js";

/**
 * What the tool executor sees of a run: its ids, cancellation, events, injectables, observations, and where
 * tools' own model usage goes.
 */
export function createToolRuntime(input: {
  config: PlannerConfig;
  state: RunState;
  toolContext: Readonly<Record<string, unknown>>;
  cancellation: Cancellation;
  events: RunEventEmitter;
  secrets: ReadonlySet<string>;
  reportUsage: ToolRuntime["reportUsage"];
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
    observations: createObservationsView(state),
    reportUsage: input.reportUsage,
  };
  // Tools stop short of the deadline by the answer turn's reserve (docs/budgets.md).
  const workUntil = getWorkDeadlineAt({ config, state });
  if (workUntil !== undefined) runtime.deadlineAt = workUntil;
  if (config.guards?.has("tool_result") === true) runtime.guards = config.guards;
  return runtime;
}

/**
 * `ctx.observations`: `last` is read live (tools see the latest observation of the run, not the one at
 * construction), as an own enumerable getter like before. Defined with one shared getter rather than an
 * object literal's `get last()`: V8 kept literals with accessors (and the run state their closure holds)
 * alive through minor GCs until the next macrotask, so that a busy process promoted every run's
 * trajectory to the old generation (about 0.5 MB per scavenge in the overhead benchmark).
 */
function createObservationsView(state: RunState): ToolRunContext["observations"] {
  const view = { state, byTool: state.observationsByTool };
  Object.defineProperty(view, "state", { enumerable: false });
  Object.defineProperty(view, "last", { get: readLastObservation, enumerable: true });
  return view as unknown as ToolRunContext["observations"];
}

function readLastObservation(this: { state: RunState }): unknown {
  return this.state.lastObservation;
}
