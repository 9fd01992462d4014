import type { Usage } from "./planner-action.js";
import { TERMINAL_RUN_STATUSES } from "./api.js";
import type {
  MergeTask,
  SessionMergedResult,
  SessionRecord,
  SessionStatus,
  SessionTask,
  SessionTaskGroup,
  SessionTaskStatus,
} from "./session.js";
import type { SessionEvent } from "./session-event.js";

/** A task in one of these statuses will not change again. */
export const TERMINAL_TASK_STATUSES: ReadonlySet<SessionTaskStatus> = new Set<SessionTaskStatus>([
  "completed",
  "failed",
  "cancelled",
  "timed_out",
  "interrupted",
]);

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
  channel?: string | undefined;
  title?: string | null;
  createdAt: string;
}): SessionRecord {
  return {
    id: head.id,
    agentId: head.agentId,
    agentVersion: head.agentVersion,
    ...(head.channel === undefined ? {} : { channel: head.channel }),
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
          : { ...turn, status, ...(event.type === "turn_ended" ? getTurnAnswer(event.data) : {}) },
      );
      if (event.type === "turn_ended" && event.data.usage)
        next.usage = addUsage(record.usage, event.data.usage);
      // A group stays open until its turn yields (answers, fails, or pauses for a person).
      if (event.type === "turn_ended" || status === "paused") sealTurnGroups(next, event.data.turn);
      break;
    }
    case "task_spawned": {
      const { taskId, runId, parentRunId, name, groupId, mergeStrategy, turn, mode } = event.data;
      const task: SessionTask = { taskId, runId, parentRunId, name, status: "queued", mergeStrategy };
      if (groupId !== undefined) task.groupId = groupId;
      if (turn !== undefined) task.turn = turn;
      const { query, tool, toolArgs } = event.data;
      if (query !== undefined || tool !== undefined) {
        task.job = {
          mode,
          ...(query === undefined ? {} : { query }),
          ...(tool === undefined ? {} : { tool }),
          ...(toolArgs === undefined ? {} : { toolArgs }),
        };
      }
      next.tasks = [...record.tasks, task];
      const group = event.data.group;
      if (groupId !== undefined && group !== undefined) {
        const others = (record.groups ?? []).filter((item) => item.groupId !== groupId);
        const upserted: SessionTaskGroup = {
          groupId,
          name: group.name,
          turn: group.turn,
          sealed: group.sealed,
          report: group.report,
          retainTurn: group.retainTurn,
          complete: false,
          ...(group.mergeStrategy === undefined ? {} : { mergeStrategy: group.mergeStrategy }),
        };
        next.groups = [...others, upserted].sort((a, b) => compareIds(a.groupId, b.groupId));
      }
      break;
    }
    case "task_update": {
      const { taskId, status, error, usage, result } = event.data;
      next.tasks = record.tasks.map((task) =>
        task.taskId !== taskId
          ? task
          : { ...task, status, ...(error ? { error } : {}), ...(result === undefined ? {} : { result }) },
      );
      if (usage) next.usage = addUsage(record.usage, usage);
      const task = next.tasks.find((item) => item.taskId === taskId);
      if (event.data.merged === true && task) {
        addMerged(next, {
          name: task.name,
          strategy: task.mergeStrategy,
          ...(task.groupId === undefined ? {} : { groupId: task.groupId }),
          tasks: [toMergeTask(task)],
        });
      }
      if (task?.groupId !== undefined) updateGroupCompletion(next);
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
    case "merge_decided": {
      const decided = record.pendingMerges.find((merge) => merge.mergeId === event.data.mergeId);
      next.pendingMerges = record.pendingMerges.filter((merge) => merge.mergeId !== event.data.mergeId);
      if (decided) {
        const { decision, note, actor } = event.data;
        next.decidedMerges = [
          ...(record.decidedMerges ?? []),
          {
            ...decided,
            decision,
            ...(note === undefined ? {} : { note }),
            ...(actor === undefined ? {} : { actor }),
            decidedAt: event.ts,
          },
        ];
      }
      if (decided && event.data.decision === "approve") {
        addMerged(next, {
          name: decided.name,
          strategy: decided.strategy,
          mergeId: decided.mergeId,
          ...(decided.groupId === undefined ? {} : { groupId: decided.groupId }),
          tasks: decided.tasks,
        });
      }
      break;
    }
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
      if (event.data.merged === true) {
        const { report, groupId, tasks, mergeStrategy } = event.data;
        addMerged(next, {
          // `any`: each task's result on its own; `all`: the group's, as one.
          name: report === "any" && tasks.length === 1 ? tasks[0]!.name : event.data.name,
          strategy: mergeStrategy,
          groupId,
          tasks,
        });
      }
      break;
  }
  next.status = getSessionStatus(next);
  return next;
}

function addMerged(record: SessionRecord, merged: Omit<SessionMergedResult, "afterTurn">): void {
  record.merged = [...(record.merged ?? []), { ...merged, afterTurn: record.turns.length }];
}

function toMergeTask(task: SessionTask): MergeTask {
  return {
    taskId: task.taskId,
    runId: task.runId,
    name: task.name,
    status: task.status,
    ...(task.result === undefined ? {} : { result: task.result }),
    ...(task.error === undefined ? {} : { error: task.error }),
  };
}

function sealTurnGroups(record: SessionRecord, turn: number): void {
  if (!record.groups?.some((group) => group.turn === turn && !group.sealed)) return;
  record.groups = record.groups.map((group) =>
    group.turn === turn && !group.sealed ? { ...group, sealed: true } : group,
  );
  updateGroupCompletion(record);
}

/** A group is complete once sealed and every one of its tasks ended. */
function updateGroupCompletion(record: SessionRecord): void {
  if (!record.groups) return;
  record.groups = record.groups.map((group) => {
    if (group.complete || !group.sealed) return group;
    const tasks = record.tasks.filter((task) => task.groupId === group.groupId);
    return tasks.every((task) => TERMINAL_TASK_STATUSES.has(task.status))
      ? { ...group, complete: true }
      : group;
  });
}

/** `group_2` before `group_10`. */
function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
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

/** What an ended turn keeps of its answer: the text, and the object when it had an answer schema. */
function getTurnAnswer(data: { answer: string | null; data?: Record<string, unknown> }): {
  answer: string | null;
  data?: Record<string, unknown>;
} {
  return data.data === undefined ? { answer: data.answer } : { answer: data.answer, data: data.data };
}
