import type { Usage } from "./planner-action.js";
import { TERMINAL_RUN_STATUSES } from "./api.js";
import type { SessionRecord, SessionStatus, SessionTask } from "./session.js";
import type { SessionEvent } from "./session-event.js";

/** How much of the first query names a session that was given no title. */
export const SESSION_TITLE_FROM_QUERY_CHARS = 80;

const ZERO_USAGE: Usage = {
  promptTokens: 0,
  completionTokens: 0,
  reasoningTokens: 0,
  costUsd: 0,
  llmCalls: 0,
};

/** A session before its first event. `title` empty: the first turn's query names it. */
export function createSessionRecord(head: {
  id: string;
  agentId: string;
  agentVersion: number;
  title?: string | null;
  createdAt: string;
}): SessionRecord {
  return {
    id: head.id,
    agentId: head.agentId,
    agentVersion: head.agentVersion,
    title: head.title ?? "",
    status: "idle",
    turns: [],
    tasks: [],
    pendingMerges: [],
    usage: ZERO_USAGE,
    lastSeq: 0,
    compactedThroughTurn: 0,
    createdAt: head.createdAt,
    updatedAt: head.createdAt,
  };
}

/**
 * The session after one more event of its log: the one fold of sessions, used by the store (which keeps
 * the record with the log), the designer and the CLI. Pure; events at or before `lastSeq` change nothing.
 */
export function applySessionEvent(record: SessionRecord, event: SessionEvent): SessionRecord {
  if (event.seq <= record.lastSeq) return record;
  const next: SessionRecord = { ...record, lastSeq: event.seq, updatedAt: new Date(event.ts).toISOString() };
  switch (event.type) {
    case "turn_started": {
      const { runId, turn, query } = event.data;
      next.turns = [...record.turns, { runId, turn, query, status: "running", answer: null }];
      if (next.title === "") next.title = getTitleFromQuery(query);
      break;
    }
    case "turn_updated":
    case "turn_ended": {
      const { runId, status } = event.data;
      next.turns = record.turns.map((turn) =>
        turn.runId !== runId
          ? turn
          : { ...turn, status, ...(event.type === "turn_ended" ? { answer: event.data.answer } : {}) },
      );
      if (event.type === "turn_ended" && event.data.usage)
        next.usage = addUsage(record.usage, event.data.usage);
      break;
    }
    case "task_spawned": {
      const { taskId, runId, parentRunId, name, groupId, mergeStrategy } = event.data;
      const task: SessionTask = { taskId, runId, parentRunId, name, status: "queued", mergeStrategy };
      if (groupId !== undefined) task.groupId = groupId;
      next.tasks = [...record.tasks, task];
      break;
    }
    case "task_update": {
      const { taskId, status, error, usage } = event.data;
      next.tasks = record.tasks.map((task) =>
        task.taskId !== taskId ? task : { ...task, status, ...(error ? { error } : {}) },
      );
      if (usage) next.usage = addUsage(record.usage, usage);
      break;
    }
    case "merge_pending": {
      const { mergeId, name, groupId, strategy, tasks } = event.data;
      next.pendingMerges = [
        ...record.pendingMerges,
        { mergeId, name, ...(groupId === undefined ? {} : { groupId }), strategy, tasks },
      ];
      break;
    }
    case "merge_decided":
      next.pendingMerges = record.pendingMerges.filter((merge) => merge.mergeId !== event.data.mergeId);
      break;
    case "context_compacted":
      if (event.data.throughTurn > record.compactedThroughTurn) {
        next.compactedThroughTurn = event.data.throughTurn;
        if (event.data.summary !== undefined) {
          next.contextSummary = { throughTurn: event.data.throughTurn, state: event.data.summary };
        }
      }
      break;
    case "session_closed":
      next.status = "closed";
      return next;
    case "task_group_report":
      break;
  }
  next.status = getSessionStatus(next);
  return next;
}

/** Folds a log from the start (or onto `record`). */
export function applySessionEvents(record: SessionRecord, events: readonly SessionEvent[]): SessionRecord {
  let folded = record;
  for (const event of events) folded = applySessionEvent(folded, event);
  return folded;
}

/**
 * `closed` stays; `running` while the last turn is queued or running; `waiting` while it is paused or a
 * merge waits for a person; `idle` otherwise.
 */
export function getSessionStatus(
  record: Pick<SessionRecord, "status" | "turns" | "pendingMerges">,
): SessionStatus {
  if (record.status === "closed") return "closed";
  const last = record.turns.at(-1);
  if (last && !TERMINAL_RUN_STATUSES.has(last.status)) {
    return last.status === "paused" ? "waiting" : "running";
  }
  return record.pendingMerges.length > 0 ? "waiting" : "idle";
}

/** A title from a query: its first line, cut at a word near 80 characters. */
export function getTitleFromQuery(query: string): string {
  const line = query.trim().split("\n")[0]?.trim() ?? "";
  if (line.length <= SESSION_TITLE_FROM_QUERY_CHARS) return line || "New chat";
  const cut = line.slice(0, SESSION_TITLE_FROM_QUERY_CHARS);
  const space = cut.lastIndexOf(" ");
  return `${(space > SESSION_TITLE_FROM_QUERY_CHARS / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

function addUsage(total: Usage, usage: Usage): Usage {
  return {
    promptTokens: total.promptTokens + usage.promptTokens,
    completionTokens: total.completionTokens + usage.completionTokens,
    reasoningTokens: total.reasoningTokens + usage.reasoningTokens,
    costUsd: total.costUsd + usage.costUsd,
    llmCalls: total.llmCalls + usage.llmCalls,
  };
}
