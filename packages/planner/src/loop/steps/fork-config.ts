import type { PlannerOptions } from "@waddle/protocol";
import { createAutoSeqSetup } from "../../auto-seq/auto-seq-setup.js";
import type { PlannerConfig } from "../planner-config.js";
import type { SerializedPlannerState } from "../../run/paused-state.js";
import type { StateStore } from "../../pause/state-store.js";
import { buildSystemPrompt } from "../../prompt/system-prompt.js";

const forks = new WeakMap<PlannerConfig, PlannerConfig>();

/** A subagent cannot wait for a person: its pauses end its task, so there is nothing to keep. */
const DISCARDING_STORE: StateStore = {
  save: (_token: string, _state: SerializedPlannerState) => Promise.resolve(),
  load: () => Promise.resolve(undefined),
  delete: () => Promise.resolve(),
};

/**
 * The configuration of a forked planner (`task.subagent`): the parent's tools, hints, models and limits,
 * with auto-seq inherited unless `tasks.autoSeq` overrides it (docs/background-tasks.md), and no background tasks of its
 * own (a subagent does not spawn subagents). Built once per planner.
 */
export function getForkConfig(parent: PlannerConfig): PlannerConfig {
  const known = forks.get(parent);
  if (known !== undefined) return known;
  const { tasks } = parent.options;
  const options: PlannerOptions = {
    ...parent.options,
    autoSeq: { ...parent.options.autoSeq, ...tasks.autoSeq },
    tasks: { ...tasks, enabled: false },
  };
  const { autoSeq: _parentAutoSeq, guards: parentGuards, ...rest } = parent;
  // A subagent's query comes from the model and its answer goes back to the run: only tool results are guarded.
  const guards = parentGuards?.only(["tool_result"]);
  const fork: PlannerConfig = {
    ...rest,
    options,
    systemPrompt: buildSystemPrompt({ catalog: parent.catalog, hints: parent.hints, options }),
    stateStore: DISCARDING_STORE,
    ...(guards === undefined ? {} : { guards }),
    ...(options.autoSeq.enabled ? { autoSeq: parent.autoSeq ?? createAutoSeqSetup(parent.catalog) } : {}),
  };
  forks.set(parent, fork);
  return fork;
}
