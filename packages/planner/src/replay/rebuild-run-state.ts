import type { RunEvent } from "@waddle/protocol";
import type { CallRecord } from "../run/call-record.js";
import { createRunState, type RunState, type TrajectoryStep } from "../run/run-state.js";
import type { TodoState } from "../run/todo-state.js";

/** A recorded step with the reply the history echoes. */
export type StepRecordOf = Extract<CallRecord, { kind: "step" }>;

/** The step records of a record, by trajectory index (a resumed run may have recorded a step twice). */
export function getRecordedSteps(records: readonly CallRecord[]): StepRecordOf[] {
  const steps: StepRecordOf[] = [];
  for (const record of records) if (record.kind === "step") steps[record.step.index] = record;
  return steps;
}

/**
 * A run's state after its first `prefix.length` steps, rebuilt from their records and the events they
 * emitted (`events`, whose last `seq` the new state continues from): the trajectory with each step's
 * verbatim reply, iterations, hops, usage, action numbering, todos and the observations tools read.
 * What only a longer run would have (a compacted summary, held merges, tasks) starts empty.
 */
export function rebuildRunState(input: {
  runId: string;
  query: string;
  contextMeta?: Record<string, unknown>;
  startedAt: number;
  deadlineS?: number;
  prefix: readonly StepRecordOf[];
  events: readonly RunEvent[];
  todosEnabled: boolean;
}): RunState {
  const state = createRunState({
    runId: input.runId,
    query: input.query,
    startedAt: input.startedAt,
    ...(input.contextMeta === undefined ? {} : { contextMeta: input.contextMeta }),
    ...(input.deadlineS === undefined ? {} : { deadlineS: input.deadlineS }),
  });
  input.prefix.forEach((record, index) => {
    const step: TrajectoryStep = { ...structuredClone(record.step), index };
    if (record.reply !== undefined) step.reply = record.reply;
    state.steps.push(step);
    if (step.note !== true) state.iteration += 1;
    if (step.note === true || step.refused !== undefined) return;
    state.hops += getHops(step);
    rememberObservations(state, step);
  });
  let todos: TodoState | undefined = input.todosEnabled
    ? { revision: 0, todos: [], consecutivePlannerOnly: 0 }
    : undefined;
  let actionSeq = 0;
  for (const event of input.events) {
    state.seq = event.seq;
    if (event.type === "llm_call") {
      const { data } = event;
      state.usage.promptTokens += data.promptTokens;
      state.usage.completionTokens += data.completionTokens;
      state.usage.reasoningTokens += data.reasoningTokens;
      state.usage.costUsd += data.costUsd;
      state.usage.llmCalls += 1;
    } else if (event.type === "action" || event.type === "llm_stream_chunk") {
      actionSeq = Math.max(actionSeq, event.data.action_seq + 1);
    } else if (event.type === "auto_seq_executed") {
      state.autoSeqSavedCalls += 1;
    } else if (event.type === "todos_updated" && todos !== undefined) {
      const { revision, focus, note } = event.data;
      todos = { revision, todos: structuredClone(event.data.todos), consecutivePlannerOnly: 0 };
      if (focus !== undefined) todos.focus = focus;
      if (note !== undefined) todos.note = note;
    }
  }
  state.actionSeq = actionSeq;
  if (todos !== undefined) state.todos = todos;
  return state;
}

/** Tool calls a step made: each branch and a join that ran, or the one call. */
function getHops(step: TrajectoryStep): number {
  if (step.branches === undefined) return 1;
  const joined = step.join !== undefined && step.join.skipped === undefined ? 1 : 0;
  return step.branches.length + joined;
}

/** As `TrajectoryRecorder` keeps them: the latest observation, and the latest per tool. */
function rememberObservations(state: RunState, step: TrajectoryStep): void {
  if (step.branches !== undefined) {
    for (const branch of step.branches) {
      if (branch.failure === undefined) state.observationsByTool[branch.node] = branch.observation;
    }
    return;
  }
  if (step.next_node.startsWith("task.") || step.failure !== undefined) return;
  state.lastObservation = step.observation;
  state.observationsByTool[step.next_node] = step.observation;
}

/**
 * The records of the steps before `fromStep`: what a fork starts its own record with, so that a fork of
 * the fork has the whole prefix to rebuild from and reuse.
 */
export function getRecordPrefix(records: readonly CallRecord[], fromStep: number): CallRecord[] {
  return records.filter((record) =>
    record.kind === "step" ? record.step.index < fromStep : record.step < fromStep,
  );
}
