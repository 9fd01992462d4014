import type { RunEventOf } from "@waddle/protocol";
import { getTransitionEdge } from "./get-transition-edge.js";
import type { TransitionProvenance } from "../../model/transition-provenance.js";
import type { CallView, NodeRunView } from "./run-view.js";
import type { RunViewDraft } from "./run-view-draft.js";

/** Records transitions into `to`, one per tool it comes from (or one from the start). */
function addTransitions(
  draft: RunViewDraft,
  input: {
    from: readonly string[];
    to: string;
    provenance: TransitionProvenance;
    seq: number;
    step: number;
    groupId?: string | null;
  },
): void {
  const sources = input.from.length === 0 ? [null] : input.from;
  for (const from of sources) {
    const edgeId = getTransitionEdge(draft.spec, { ...input, from });
    const { seq, step, to, provenance } = input;
    draft.addTransition({ seq, step, from, to, provenance, edgeId });
  }
}

const settle = (node: NodeRunView, outcome: "succeeded" | "failed") => {
  node.active = Math.max(0, (node.active ?? 0) - 1);
  node.state = node.active > 0 ? "running" : outcome;
};

export function applyToolStart(draft: RunViewDraft, event: RunEventOf<"tool_start">): void {
  const { tool, callId, attempt, args, parallelId, branch, join, source } = event.data;
  const node = draft.node(tool);
  node.changedSeq = event.seq;
  node.lastCallId = callId;
  if (event.replayed === true) node.replayed = true;
  else if (node.replayed) node.replayed = false;
  if (event.cached === true) node.cached = true;
  else if (node.cached) node.cached = false;
  if ((event.data as { edited?: unknown }).edited === true) node.edited = true;
  else if (node.edited) node.edited = false;
  node.attempt = attempt;
  const existing = draft.calls.edit(callId);
  if (existing !== undefined) {
    // A retry of the call, or a paused call running again after `resumed`.
    if (existing.status === "awaiting_approval" || existing.status === "skipped")
      node.active = (node.active ?? 0) + 1;
    existing.attempt = attempt;
    existing.args = args;
    existing.status = attempt > 1 ? "retrying" : "running";
    node.state = existing.status;
    return;
  }
  const call: CallView = {
    callId,
    tool,
    step: event.step,
    startSeq: event.seq,
    startTs: event.ts,
    args,
    attempt,
    status: attempt > 1 ? "retrying" : "running",
  };
  if (source !== undefined) call.source = source;
  if (parallelId !== undefined) call.parallelId = parallelId;
  if (branch !== undefined) call.branch = branch;
  if (join === true) call.join = true;
  draft.calls.set(callId, call);
  draft.callOrder.push(callId);
  node.calls += 1;
  node.active = (node.active ?? 0) + 1;
  node.state = call.status;
  draft.totals.hops += 1;
  const stepView = draft.step(event.step, event);
  if (!stepView.tools.includes(tool)) stepView.tools = [...stepView.tools, tool];
  const parallel = parallelId === undefined ? undefined : draft.parallels.get(parallelId);
  const at = { to: tool, seq: event.seq, step: event.step };
  if (parallel !== undefined && join === true) {
    const from = parallel.nodes.filter((name) => draft.nodes.get(name)?.state === "succeeded");
    addTransitions(draft, { ...at, from, provenance: "join", groupId: parallel.groupId });
  } else if (parallel !== undefined) {
    addTransitions(draft, { ...at, from: parallel.from ?? [], provenance: "parallel" });
  } else {
    const provenance = source ?? draft.currentCursor.lastAction?.source ?? "llm";
    addTransitions(draft, {
      ...at,
      from: draft.currentCursor.lastTools,
      provenance: toProvenance(provenance),
    });
    draft.cursor.lastTools = [tool];
  }
}

const toProvenance = (source: string): TransitionProvenance =>
  source === "auto_seq" || source === "resume" || source === "system" ? source : "llm";

export function applyToolEnd(draft: RunViewDraft, event: RunEventOf<"tool_end">): void {
  const { tool, callId, observation, durationMs } = event.data;
  const node = draft.node(tool);
  node.changedSeq = event.seq;
  node.totalMs += durationMs;
  settle(node, "succeeded");
  const call = draft.calls.edit(callId);
  if (call !== undefined) {
    call.status = "succeeded";
    call.observation = observation;
    call.durationMs = durationMs;
  }
  countBranch(draft, event.data, false);
}

export function applyToolError(draft: RunViewDraft, event: RunEventOf<"tool_error">): void {
  const { tool, callId, failure, durationMs } = event.data;
  const node = draft.node(tool);
  node.changedSeq = event.seq;
  node.totalMs += durationMs;
  node.failures += 1;
  settle(node, "failed");
  const call = draft.calls.edit(callId);
  if (call !== undefined) {
    const { error_code, message, ...rest } = failure;
    call.status = "failed";
    call.failure = { ...rest, code: error_code, message };
    call.durationMs = durationMs;
  }
  countBranch(draft, event.data, true);
}

export function applyToolRetry(draft: RunViewDraft, event: RunEventOf<"tool_retry">): void {
  const node = draft.node(event.data.tool);
  node.changedSeq = event.seq;
  node.state = "retrying";
  node.attempt = event.data.attempt;
  const call = draft.calls.edit(event.data.callId);
  if (call !== undefined) {
    call.status = "retrying";
    call.attempt = event.data.attempt;
  }
}

function countBranch(
  draft: RunViewDraft,
  data: { parallelId?: string; branch?: number; join?: boolean },
  failed: boolean,
): void {
  if (data.parallelId === undefined || data.join === true || data.branch === undefined) return;
  const parallel = draft.parallels.edit(data.parallelId);
  if (parallel === undefined) return;
  parallel.done += 1;
  if (failed) parallel.failed += 1;
}

export function applyParallelStart(draft: RunViewDraft, event: RunEventOf<"parallel_start">): void {
  const { parallelId, steps, join, groupId } = event.data;
  const nodes = steps.map((step) => step.node);
  draft.parallels.set(parallelId, {
    parallelId,
    groupId: groupId ?? null,
    step: event.step,
    nodes,
    total: nodes.length,
    done: 0,
    failed: 0,
    joinNode: join?.node ?? null,
    joinStatus: join === undefined ? "none" : "pending",
    finished: false,
    from: draft.currentCursor.lastTools,
  });
  for (const name of join === undefined ? nodes : [...nodes, join.node]) {
    const node = draft.node(name);
    if ((node.active ?? 0) > 0) continue;
    node.state = "queued";
    node.changedSeq = event.seq;
  }
}

export function applyParallelEnd(draft: RunViewDraft, event: RunEventOf<"parallel_end">): void {
  const { parallelId, join } = event.data;
  const parallel = draft.parallels.edit(parallelId);
  if (parallel === undefined) return;
  parallel.finished = true;
  parallel.joinStatus = join.status;
  if (join.reason !== undefined) parallel.joinReason = join.reason;
  if (join.message !== undefined) parallel.joinMessage = join.message;
  for (const name of parallel.nodes) skipQueued(draft, name, event.seq, "skipped");
  const joinNode = join.node ?? parallel.joinNode;
  const joinCall = draft.calls.get(`${parallelId}:join`);
  if (joinNode !== null && joinCall === undefined) {
    // The join never ran: skipped (a branch failed) or refused before it could (its args did not validate).
    skipQueued(draft, joinNode, event.seq, join.status === "error" ? "failed" : "skipped");
  }
  const ran = parallel.nodes.filter((name) => {
    const state = draft.nodes.get(name)?.state;
    return state === "succeeded" || state === "failed";
  });
  draft.cursor.lastTools = joinCall !== undefined && joinNode !== null ? [joinNode] : ran;
}

function skipQueued(draft: RunViewDraft, name: string, seq: number, state: "skipped" | "failed"): void {
  if (draft.nodes.get(name)?.state !== "queued") return;
  const node = draft.node(name);
  node.state = state;
  node.changedSeq = seq;
}
