import type {
  PendingMerge,
  SessionDecidedMerge,
  SessionRecord,
  SessionTask,
  SessionTaskStatus,
} from "@waddle/protocol";
import type { ChatGroupReport } from "./chat-types.js";

/** Statuses after which a task changes no more. */
export const ENDED_TASK_STATUSES: ReadonlySet<SessionTaskStatus> = new Set([
  "completed",
  "failed",
  "cancelled",
  "timed_out",
  "interrupted",
]);

export interface ChatTrayTask extends Omit<SessionTask, "turn"> {
  /** The turn that spawned it (null when that turn is not in the record). */
  turn: number | null;
  /** How a person decided the held merge of its result, once they did (else absent). */
  mergeDecision?: SessionDecidedMerge["decision"];
}

/** Tasks of one group: how far along they are, and its report once the session heard it. */
export interface ChatTrayGroup {
  groupId: string;
  name: string;
  tasks: ChatTrayTask[];
  done: number;
  total: number;
  report: ChatGroupReport | null;
}

export interface ChatTray {
  /** Groups, in the order their first task was spawned. */
  groups: ChatTrayGroup[];
  /** Tasks of no group, in spawn order. */
  loose: ChatTrayTask[];
  merges: PendingMerge[];
  /** Merges a person decided, newest first: applied or rejected, with the note and who decided. */
  decided: SessionDecidedMerge[];
  /** Reports of groups that have no task in the record (a record trimmed, a report heard first). */
  orphanReports: ChatGroupReport[];
  active: number;
  total: number;
}

/**
 * What the chat's tray shows: the session's tasks by group with each group's progress and report, the
 * tasks of no group, the merges that wait for a person and those decided (a task of one says how), all
 * from the folded session record (and the group reports the chat heard in the log).
 */
export function getChatTray(
  record: Pick<SessionRecord, "tasks" | "turns" | "pendingMerges" | "decidedMerges"> | null,
  reports: readonly ChatGroupReport[],
): ChatTray {
  if (record === null)
    return { groups: [], loose: [], merges: [], decided: [], orphanReports: [], active: 0, total: 0 };
  const turnOf = new Map(record.turns.map((turn) => [turn.runId, turn.turn]));
  const decided = record.decidedMerges ?? [];
  const decisionOf = new Map(
    decided.flatMap((merge) => merge.tasks.map((task) => [task.taskId, merge.decision] as const)),
  );
  const lastReport = new Map<string, ChatGroupReport>();
  for (const report of reports) {
    const known = lastReport.get(report.groupId);
    if (known === undefined || known.seq < report.seq) lastReport.set(report.groupId, report);
  }
  const groups = new Map<string, ChatTrayGroup>();
  const loose: ChatTrayTask[] = [];
  let active = 0;
  for (const task of record.tasks) {
    const item: ChatTrayTask = { ...task, turn: turnOf.get(task.parentRunId) ?? null };
    const decision = decisionOf.get(task.taskId);
    if (decision !== undefined) item.mergeDecision = decision;
    const ended = ENDED_TASK_STATUSES.has(task.status);
    if (!ended) active += 1;
    if (task.groupId === undefined) {
      loose.push(item);
      continue;
    }
    let group = groups.get(task.groupId);
    if (group === undefined) {
      const report = lastReport.get(task.groupId) ?? null;
      group = {
        groupId: task.groupId,
        name: report?.name ?? task.groupId,
        tasks: [],
        done: 0,
        total: 0,
        report,
      };
      groups.set(task.groupId, group);
    }
    group.tasks.push(item);
    group.total += 1;
    if (ended) group.done += 1;
  }
  const orphanReports = [...lastReport.values()].filter((report) => !groups.has(report.groupId));
  return {
    groups: [...groups.values()],
    loose,
    merges: record.pendingMerges,
    decided: [...decided].reverse(),
    orphanReports,
    active,
    total: record.tasks.length,
  };
}
