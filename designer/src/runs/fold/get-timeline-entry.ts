import { getRunTokens, type RunEvent } from "@waddle/protocol";
import { formatDuration } from "../../util/format-metrics.js";
import type { DecisionStatus, TimelineEntry, TimelineKind } from "./run-view.js";
import { getStuckText } from "./apply-stuck-event.js";
import { getGuardCheckingText, getGuardSentence, getOwnMessage } from "./apply-guard-event.js";

const STAGE_WORDS = { input: "the query", tool_result: "tool results", output: "the answer" } as const;

const PHASE_TITLES = { plan: "Plan", act: "Act", obs: "Obs", reflect: "Reflect" } as const;

const DECISION_STATUS = { approve: "approved", edit: "edited", reject: "rejected" } as const;
const DECISION_TITLES: Record<DecisionStatus, string> = {
  approved: "Approved",
  edited: "Edited and approved",
  rejected: "Rejected",
};

/**
 * The run panel's timeline line for one event, or null for events that only change state (stream chunks,
 * step starts, tool starts, auto-seq detection). `lastTool` is the tool of the latest action, for the
 * Act/Obs entries that concern it.
 */
export function getTimelineEntry(
  event: RunEvent,
  lastTool: string | null,
  /** At a `resumed`: the tool the pause waited on. */
  pausedTool: string | null = null,
): TimelineEntry | null {
  const entry = (
    kind: TimelineKind,
    title: string,
    extra: Partial<Pick<TimelineEntry, "detail" | "tool" | "callId" | "tone" | "status" | "note">> = {},
  ): TimelineEntry => {
    const made: TimelineEntry = { seq: event.seq, step: event.step, ts: event.ts, kind, title, ...extra };
    if (event.replayed === true) made.replayed = true;
    if (event.cached === true) made.cached = true;
    if ((event.data as { edited?: unknown }).edited === true) made.edited = true;
    return made;
  };
  switch (event.type) {
    case "run_started":
      return entry("start", "Run started", { detail: event.data.query });
    case "reasoning": {
      const { phase, summary } = event.data;
      const tool = (phase === "act" || phase === "obs") && lastTool !== null ? { tool: lastTool } : {};
      return entry(phase, PHASE_TITLES[phase], { detail: summary, ...tool });
    }
    case "action":
      if (event.data.source === "auto_seq")
        return entry("auto_seq", `Auto-seq: ${event.data.next_node}`, {
          detail: "Ran without asking the LLM",
          tool: event.data.next_node,
          tone: "good",
        });
      return event.data.next_node === "final_response" ? entry("action", "Answer") : null;
    case "llm_call": {
      const { purpose, latencyMs } = event.data;
      const tokens = getRunTokens(event.data);
      return entry("llm", `LLM · ${purpose}`, {
        detail: `${tokens} tokens · ${formatDuration(latencyMs)} · ${event.data.model}`,
      });
    }
    case "tool_end":
      return entry("tool", `${event.data.tool} done`, {
        detail: formatDuration(event.data.durationMs),
        tool: event.data.tool,
        callId: event.data.callId,
        tone: "good",
      });
    case "tool_error":
      return entry("tool_error", `${event.data.tool} failed`, {
        detail: `${event.data.failure.error_code}: ${event.data.failure.message}`,
        tool: event.data.tool,
        callId: event.data.callId,
        tone: "bad",
      });
    case "tool_progress": {
      const { progress, total, message } = event.data;
      const amount = total === undefined ? `${progress}` : `${progress}/${total}`;
      return entry("tool", `Progress ${event.data.tool}`, {
        detail: message === undefined ? amount : `${amount} · ${message}`,
        tool: event.data.tool,
        callId: event.data.callId,
      });
    }
    case "tool_retry":
      return entry("retry", `Retry ${event.data.tool} (attempt ${event.data.attempt})`, {
        detail: `${event.data.error_code}: ${event.data.message} · in ${formatDuration(event.data.delayMs)}`,
        tool: event.data.tool,
        callId: event.data.callId,
        tone: "warn",
      });
    case "repair_attempt":
      return entry("repair", `Repair (${event.data.kind}, attempt ${event.data.attempt})`, {
        detail: `${event.data.error_code}: ${event.data.message}`,
        ...(event.data.node ? { tool: event.data.node } : {}),
        tone: "warn",
      });
    case "action_salvaged":
      return entry("repair", `Salvaged: ${event.data.rule}`, {
        ...(event.data.detail ? { detail: event.data.detail } : {}),
        ...(event.data.node ? { tool: event.data.node } : {}),
        tone: "warn",
      });
    case "constraint_violation":
      return entry("constraint", `Constraint: ${event.data.constraint} (${event.data.enforced})`, {
        detail: event.data.message,
        ...(event.data.node ? { tool: event.data.node } : {}),
        tone: event.data.enforced === "finished" ? "bad" : "warn",
      });
    case "summary_compacted":
      return entry("summary", "History summarized", {
        detail: `${event.data.before_tokens} → ${event.data.after_tokens} tokens (${event.data.method})`,
      });
    case "parallel_start":
      return entry("parallel", `Parallel: ${event.data.steps.map((step) => step.node).join(", ")}`, {
        ...(event.data.join ? { detail: `then join ${event.data.join.node}` } : {}),
      });
    case "parallel_end": {
      const { successCount, failureCount, join } = event.data;
      const why = join.message ?? join.reason;
      const joined = join.status === "none" ? "" : `; join ${join.status}${why ? ` (${why})` : ""}`;
      const tone =
        failureCount > 0 || join.status === "error" ? "bad" : join.status === "skipped" ? "warn" : "good";
      return entry("parallel", "Parallel done", {
        detail: `${successCount} succeeded, ${failureCount} failed${joined}`,
        tone,
        ...(join.node ? { tool: join.node } : {}),
      });
    }
    case "todos_updated": {
      const done = event.data.todos.filter((todo) => todo.status === "completed").length;
      return entry("todos", `Todos: ${done}/${event.data.todos.length} done`, {
        ...(event.data.focus ? { detail: event.data.focus } : {}),
      });
    }
    case "task_spawned":
      return entry("task", `Task started: ${event.data.name}`, {
        detail: event.data.mode,
        ...(event.data.tool ? { tool: event.data.tool } : {}),
      });
    case "task_update":
      return entry("task", `Task ${event.data.taskId}: ${event.data.status}`, {
        ...(event.data.error ? { detail: event.data.error.message } : {}),
        tone:
          event.data.status === "completed" ? "good" : event.data.status === "running" ? "neutral" : "warn",
      });
    case "task_group_report":
      return entry("task", `Task group ${event.data.name} reported`, {
        detail: `${event.data.tasks.length} tasks (${event.data.report})`,
      });
    case "pause": {
      const tool = event.data.payload.tool;
      return entry("pause", `Paused: ${event.data.reason}`, {
        ...(typeof tool === "string" ? { tool, detail: `waiting for a decision on ${tool}` } : {}),
        tone: "warn",
      });
    }
    case "stuck_detected":
      return entry("stuck", `Stuck: ${getStuckText(event.data)}`, {
        ...(event.data.tools[0] === undefined ? {} : { tool: event.data.tools[0] }),
        tone: event.data.action === "nudge" ? "warn" : "bad",
      });
    case "guard_verdict": {
      const { verdict, action, tool, check } = event.data;
      const tone = verdict === "pass" ? "good" : action === "block" || verdict === "error" ? "bad" : "warn";
      // an error's cause, in the planner's words, goes under the sentence; its stand-in for a guard
      // without a message ("… stopped this tool result …") would only repeat it, or say "stopped" of a redact
      const said =
        verdict === "error" && getOwnMessage(event.data) === undefined ? event.data.message : undefined;
      return entry("guard", getGuardSentence(event.data), {
        detail: said ?? `${check} check on ${STAGE_WORDS[event.data.on]}`,
        ...(tool === undefined ? {} : { tool }),
        tone,
      });
    }
    case "guard_checking":
      return entry("guard", getGuardCheckingText(event.data), {
        detail: `${event.data.guards.join(", ")} checking; held back from every stream until it passes`,
        tone: "neutral",
      });
    case "resumed": {
      const { decision, note, actor } = event.data;
      const status = DECISION_STATUS[decision];
      const what = pausedTool === null ? "" : `: ${pausedTool}`;
      // Who decided (the key's name), when the server has keys or a token: "Approved by alice: send_email".
      const by = actor === undefined ? "" : ` by ${actor}`;
      return entry("resumed", `${DECISION_TITLES[status]}${by}${what}`, {
        status,
        tone: status === "rejected" ? "bad" : "good",
        ...(pausedTool === null ? {} : { tool: pausedTool }),
        ...(note === undefined ? {} : { note, detail: `Note: ${note}` }),
      });
    }
    case "run_finished":
      return entry("finish", `Finished: ${event.data.reason}`, {
        detail: event.data.payload.answer,
        tone: event.data.reason === "answer_complete" ? "good" : "warn",
      });
    case "run_failed":
      return entry("error", "Run failed", {
        detail: `${event.data.error.code}: ${event.data.error.message}`,
        tone: "bad",
      });
    case "run_interrupted":
      return entry("error", "Run interrupted", { detail: event.data.message, tone: "bad" });
    default:
      return null;
  }
}
