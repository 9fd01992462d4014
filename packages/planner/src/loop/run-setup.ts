import type { ActionSource, PlannerAction, RunEventData } from "@waddle/protocol";
import type { LlmClient } from "../llm/llm-client.js";
import { LlmCaller } from "../llm/llm-caller.js";
import type { PlannerConfig } from "./planner-config.js";
import type { RunContext } from "./run-context.js";
import type { PlannerView } from "../run/planner-view.js";
import { createRunState, type RunState } from "../run/run-state.js";
import type { RunOptions } from "../run/run-types.js";
import { scrubSecrets } from "../secrets/secret-scrubber.js";
import { createTodoState } from "../todos/write-todos.js";

/** A new run's state: ids, clock, scrubbed context, the absolute deadline, an empty plan with todos. */
export function createInitialState(input: {
  config: PlannerConfig;
  query: string;
  options: RunOptions;
  secrets: ReadonlySet<string>;
}): RunState {
  const { config, options } = input;
  const contextMeta =
    options.contextMeta === undefined ? undefined : scrubSecrets(options.contextMeta, input.secrets);
  const state = createRunState({
    runId: options.runId ?? config.createId(),
    query: input.query,
    startedAt: config.clock(),
    ...(contextMeta === undefined ? {} : { contextMeta }),
    ...(config.options.deadlineS === undefined ? {} : { deadlineS: config.options.deadlineS }),
  });
  if (config.writeTodosTool !== undefined) state.todos = createTodoState();
  const answerSchema = options.answerSchema ?? config.answerSchema;
  if (answerSchema !== undefined) state.answerSchema = answerSchema;
  const keys = Object.keys(options.toolContext ?? {}).sort();
  if (keys.length > 0) state.toolContextKeys = keys;
  return state;
}

/** The run's caller of planning calls on `llm` (the main client, or a routed candidate's). */
export function createRunLlmCaller(run: RunContext, llm: LlmClient): LlmCaller {
  const { config, state } = run;
  return new LlmCaller({
    llm,
    cancellation: run.cancellation,
    events: run.events,
    usage: state.usage,
    clock: config.clock,
    responseFormat: config.responseFormat,
    ...(config.priceTable === undefined ? {} : { priceTable: config.priceTable }),
    nextActionSeq: () => state.actionSeq++,
    secrets: run.secrets,
    // An answer that output guards or the answer schema may still refuse never streams in pieces.
    holdAnswer: config.guards?.has("output") === true || state.answerSchema !== undefined,
  });
}

export function getRunStartedData(run: RunContext): RunEventData<"run_started"> {
  const { config } = run;
  const { llm } = config;
  const data: RunEventData<"run_started"> = {
    query: scrubSecrets(run.state.query, run.secrets),
    llm: { provider: llm.provider, model: llm.model, offline: llm.offline === true },
    tools: [...config.catalog.names],
  };
  if (config.agentId !== undefined) data.agentId = config.agentId;
  if (config.agentVersion !== undefined) data.agentVersion = config.agentVersion;
  return data;
}

/** The structured view for in-process models; shares the trajectory array instead of copying it. */
export function getPlannerView(run: RunContext, lastError?: { code: string; message: string }): PlannerView {
  const { config, state } = run;
  const view: PlannerView = {
    query: state.query,
    tools: config.viewTools,
    hints: config.hints.hints,
    edges: config.edges,
    groups: config.groups,
    steps: state.steps,
    todos: { enabled: config.options.todos.enabled, items: state.todos?.todos ?? [] },
    tasksEnabled: config.options.tasks.enabled,
    iteration: state.iteration,
    maxIters: config.options.maxIters,
  };
  if (lastError !== undefined) view.lastError = lastError;
  if (state.contextMeta !== undefined) view.context = state.contextMeta;
  if (state.answerSchema !== undefined) view.answerSchema = state.answerSchema;
  return view;
}

/** What an answer's `action` event shows while output guards check it. */
const HELD_ANSWER = "(held until the answer's guards pass)";

/** The `action` event; an answer that output guards check shows nowhere before they pass, not even here. */
export function emitActionEvent(
  run: RunContext,
  input: { action: PlannerAction; source: ActionSource; actionSeq: number },
): void {
  const { action, source, actionSeq } = input;
  if (!run.events.enabled) return run.events.skip();
  const held = action.next_node === "final_response" && run.config.guards?.has("output") === true;
  run.events.emit("action", {
    next_node: action.next_node,
    args: held ? { answer: HELD_ANSWER } : run.events.preview(action.args),
    source,
    action_seq: actionSeq,
  });
}
