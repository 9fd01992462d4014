import {
  addLlmCallUsage,
  getFinishedStatus,
  getRunTokens,
  getStepsAfter,
  RESERVED_TOOL_NAMES,
  type AgentSpec,
  type RunEvent,
  type RunEventOf,
} from "@waddle/protocol";
import {
  applyParallelEnd,
  applyParallelStart,
  applyToolEnd,
  applyToolError,
  applyToolRetry,
  applyToolStart,
} from "./apply-tool-event.js";
import { getTimelineEntry } from "./get-timeline-entry.js";
import { applyStuckDetected } from "./apply-stuck-event.js";
import { applyGuardChecking, applyGuardVerdict } from "./apply-guard-event.js";
import type { CallView, NodeRunState, RunView } from "./run-view.js";
import { RunViewDraft } from "./run-view-draft.js";

/** What the fold may use besides the events: the spec of the version that ran (to find transitions' edges). */
export interface ApplyRunEventContext {
  spec?: AgentSpec;
}

const EMPTY = Object.freeze({}) as Readonly<Record<string, never>>;

/** The view of a run before its first event. */
export function createRunView(runId: string): RunView {
  return {
    runId,
    status: "queued",
    lastSeq: 0,
    firstTs: null,
    lastTs: null,
    query: "",
    agentId: null,
    agentVersion: null,
    llm: null,
    nodes: EMPTY,
    calls: EMPTY,
    callOrder: [],
    transitions: [],
    edges: EMPTY,
    parallels: EMPTY,
    answer: "",
    answerDone: false,
    thinking: "",
    thinkingDone: false,
    todos: [],
    timeline: [],
    steps: [],
    totals: {
      llmCalls: 0,
      promptTokens: 0,
      completionTokens: 0,
      reasoningTokens: 0,
      costUsd: 0,
      hops: 0,
      steps: 0,
      autoSeqSaved: 0,
      elapsedMs: 0,
    },
    tasks: EMPTY,
    pause: null,
    finish: null,
    error: null,
    guards: { input: [], output: [] },
    guardChecking: null,
    cursor: {
      lastTools: [],
      answerActionSeq: null,
      thinkingActionSeq: null,
      lastAction: null,
      autoSeqExecuted: 0,
    },
  };
}

/** Folds one event into the view (pure: returns a new view, or the same one for an old `seq`). */
export function applyRunEvent(view: RunView, event: RunEvent, context?: ApplyRunEventContext): RunView {
  return applyRunEvents(view, [event], context);
}

/**
 * Folds events into the view: pure (the input is never mutated), and each container is copied at most
 * once per call, so a batch of thousands costs about as much as its events. Events at or below the
 * view's `lastSeq` (duplicates, replays) are ignored.
 */
export function applyRunEvents(
  view: RunView,
  events: readonly RunEvent[],
  context: ApplyRunEventContext = {},
): RunView {
  let draft: RunViewDraft | null = null;
  for (const event of events) {
    if (event.seq <= (draft?.scalars.lastSeq ?? view.lastSeq)) continue;
    draft ??= new RunViewDraft(view, context.spec);
    applyToDraft(draft, event);
  }
  return draft === null ? view : draft.toView();
}

function applyToDraft(draft: RunViewDraft, event: RunEvent): void {
  const { scalars } = draft;
  scalars.lastSeq = event.seq;
  scalars.firstTs ??= event.ts;
  scalars.lastTs = Math.max(scalars.lastTs ?? event.ts, event.ts);
  draft.totals.elapsedMs = scalars.lastTs - scalars.firstTs;
  if (scalars.status === "queued") scalars.status = "running";
  // the one step count (`getStepsAfter`): steps recorded, not the one in progress nor the answer
  draft.totals.steps = getStepsAfter(draft.totals.steps, event);
  const lastStep = draft.steps.at(draft.steps.length - 1);
  if (lastStep !== undefined && lastStep.step === event.step && lastStep.endTs < event.ts) {
    (draft.steps.edit(draft.steps.length - 1) as typeof lastStep).endTs = event.ts;
  }
  const pausedTool = event.type === "resumed" ? (scalars.pause?.tool ?? null) : null;
  applyByType(draft, event);
  const lastAction = draft.currentCursor.lastAction?.nextNode ?? null;
  const entry = getTimelineEntry(
    event,
    lastAction !== null && !RESERVED_TOOL_NAMES.has(lastAction) ? lastAction : null,
    pausedTool,
  );
  if (entry !== null) draft.timeline.push(entry);
}

function applyByType(draft: RunViewDraft, event: RunEvent): void {
  const { scalars } = draft;
  switch (event.type) {
    case "run_started": {
      const { query, agentId, agentVersion, llm } = event.data;
      scalars.query = query;
      scalars.agentId = agentId ?? scalars.agentId;
      scalars.agentVersion = agentVersion ?? scalars.agentVersion;
      scalars.llm = { provider: llm.provider, model: llm.model, offline: llm.offline };
      return;
    }
    case "step_start":
      draft.step(event.step, event).source = event.data.source;
      return;
    case "llm_call":
      return applyLlmCall(draft, event);
    case "llm_stream_chunk":
      return applyStreamChunk(draft, event);
    case "action":
      draft.cursor.lastAction = { nextNode: event.data.next_node, source: event.data.source };
      draft.step(event.step, event).action = event.data.next_node;
      return;
    case "tool_start":
      return applyToolStart(draft, event);
    case "tool_end":
      return applyToolEnd(draft, event);
    case "tool_error":
      return applyToolError(draft, event);
    case "tool_retry":
      return applyToolRetry(draft, event);
    case "parallel_start":
      return applyParallelStart(draft, event);
    case "parallel_end":
      return applyParallelEnd(draft, event);
    case "todos_updated":
      scalars.todos = event.data.todos;
      return;
    case "pause":
      return applyPause(draft, event);
    case "resumed":
      return applyResumed(draft, event);
    case "task_spawned": {
      const { taskId, name, mode, tool } = event.data;
      draft.tasks.set(taskId, { taskId, name, mode, status: "queued", ...(tool ? { tool } : {}) });
      return;
    }
    case "task_update": {
      const { taskId, status, result, error } = event.data;
      const task =
        draft.tasks.edit(taskId) ?? draft.tasks.set(taskId, { taskId, name: taskId, mode: "", status });
      task.status = status;
      if (result !== undefined) task.result = result;
      if (error !== undefined) task.error = { code: error.code, message: error.message };
      return;
    }
    case "stuck_detected":
      return applyStuckDetected(draft, event);
    case "guard_verdict":
      return applyGuardVerdict(draft, event);
    case "guard_checking":
      return applyGuardChecking(draft, event);
    case "auto_seq_executed":
      draft.cursor.autoSeqExecuted += 1;
      draft.totals.autoSeqSaved = Math.max(draft.totals.autoSeqSaved, draft.cursor.autoSeqExecuted);
      return;
    case "run_finished":
      return applyFinished(draft, event);
    case "run_failed":
      scalars.status = "failed";
      scalars.guardChecking = null;
      scalars.error = { code: event.data.error.code, message: event.data.error.message };
      scalars.pause = null;
      return settleNodes(draft, { running: "failed", seq: event.seq });
    case "run_interrupted":
      scalars.status = "interrupted";
      scalars.guardChecking = null;
      scalars.error = { code: "interrupted", message: event.data.message };
      scalars.pause = null;
      return settleNodes(draft, { running: "failed", seq: event.seq });
    default:
      return;
  }
}

function applyLlmCall(draft: RunViewDraft, event: RunEventOf<"llm_call">): void {
  const { promptTokens, completionTokens, costUsd, latencyMs } = event.data;
  Object.assign(draft.totals, addLlmCallUsage(draft.totals, event.data));
  const step = draft.step(event.step, event);
  step.llmCalls += 1;
  step.tokens += getRunTokens({ promptTokens, completionTokens });
  step.costUsd += costUsd;
  step.llmMs = (step.llmMs ?? 0) + latencyMs;
}

/** Each channel holds the stream of one `action_seq`: a new one starts it over (a repaired reply, say). */
function applyStreamChunk(draft: RunViewDraft, event: RunEventOf<"llm_stream_chunk">): void {
  const { scalars } = draft;
  const { channel, text, done, action_seq: actionSeq } = event.data;
  if (channel === "answer") {
    if (draft.currentCursor.answerActionSeq !== actionSeq) {
      draft.cursor.answerActionSeq = actionSeq;
      scalars.answer = "";
      scalars.answerDone = false;
    }
    scalars.answer += text;
    if (done) scalars.answerDone = true;
    return;
  }
  if (draft.currentCursor.thinkingActionSeq !== actionSeq) {
    draft.cursor.thinkingActionSeq = actionSeq;
    scalars.thinking = "";
    scalars.thinkingDone = false;
  }
  scalars.thinking += text;
  if (done) scalars.thinkingDone = true;
}

function applyPause(draft: RunViewDraft, event: RunEventOf<"pause">): void {
  const { reason, payload, resumeToken } = event.data;
  const tool = typeof payload.tool === "string" ? payload.tool : null;
  let callId: string | null = null;
  let nodeStateBefore: NodeRunState | null = null;
  if (tool !== null) {
    const node = draft.node(tool);
    nodeStateBefore = node.state;
    const running = node.lastCallId === null ? undefined : draft.calls.get(node.lastCallId);
    if (running !== undefined && (running.status === "running" || running.status === "retrying")) {
      // A tool that paused itself (`ctx.pause()`): its call waits, and runs again if approved.
      callId = running.callId;
      (draft.calls.edit(running.callId) as CallView).status = "awaiting_approval";
      node.active = Math.max(0, (node.active ?? 0) - 1);
      nodeStateBefore = "queued";
    }
    node.state = "awaiting_approval";
    node.changedSeq = event.seq;
  }
  draft.scalars.status = "paused";
  draft.scalars.pause = { reason, payload, resumeToken, tool, args: payload.args, callId, nodeStateBefore };
}

function applyResumed(draft: RunViewDraft, event: RunEventOf<"resumed">): void {
  const { scalars } = draft;
  const pause = scalars.pause;
  scalars.status = "running";
  scalars.pause = null;
  if (pause === null || pause.tool === null) return;
  const rejected = event.data.decision === "reject";
  const node = draft.node(pause.tool);
  if (node.state === "awaiting_approval") {
    // A rejected call shows as `rejected`: a person's decision, neither a failure nor a skip.
    node.state = rejected ? "rejected" : (pause.nodeStateBefore ?? "idle");
    node.changedSeq = event.seq;
  }
  if (rejected && pause.callId !== null) {
    const call = draft.calls.edit(pause.callId);
    if (call !== undefined) call.status = "rejected";
  }
}

function applyFinished(draft: RunViewDraft, event: RunEventOf<"run_finished">): void {
  const { scalars } = draft;
  const { reason, payload, metadata } = event.data;
  scalars.status = getFinishedStatus(reason);
  scalars.finish = { reason, answer: payload.answer, payload, failedJoins: metadata.failedJoins ?? [] };
  scalars.answer = payload.answer;
  scalars.answerDone = true;
  scalars.pause = null;
  scalars.guardChecking = null;
  const totals = draft.totals;
  const usage = metadata.usage;
  // The run's own totals win where they know more (usage counted before this viewer's first event).
  totals.llmCalls = Math.max(totals.llmCalls, usage.llmCalls, metadata.llmCalls);
  totals.promptTokens = Math.max(totals.promptTokens, usage.promptTokens);
  totals.completionTokens = Math.max(totals.completionTokens, usage.completionTokens);
  totals.reasoningTokens = Math.max(totals.reasoningTokens, usage.reasoningTokens);
  totals.costUsd = Math.max(totals.costUsd, usage.costUsd);
  totals.autoSeqSaved = Math.max(totals.autoSeqSaved, metadata.autoSeqSavedCalls);
  settleNodes(draft, { running: "skipped", seq: event.seq });
}

/** At the end of a run nothing is still waiting: queued and paused nodes were skipped; running ones stopped. */
function settleNodes(draft: RunViewDraft, input: { running: "failed" | "skipped"; seq: number }): void {
  for (const [name, node] of Object.entries(draft.nodes.result())) {
    const state = node.state;
    if (state !== "queued" && state !== "awaiting_approval" && state !== "running" && state !== "retrying")
      continue;
    const edited = draft.node(name);
    edited.state = state === "running" || state === "retrying" ? input.running : "skipped";
    edited.active = 0;
    edited.changedSeq = input.seq;
  }
  for (const [callId, call] of Object.entries(draft.calls.result())) {
    if (call.status === "running" || call.status === "retrying" || call.status === "awaiting_approval") {
      const edited = draft.calls.edit(callId) as CallView;
      edited.status = call.status === "awaiting_approval" ? "skipped" : input.running;
    }
  }
}
