import type { InboxItem, PendingMerge, RunRecord, SessionRecord } from "@waddle/protocol";
import type { InboxMark } from "../store/inbox/inbox-store.js";
import { getMergeItemId, getPauseItemId } from "./inbox-item-id.js";

/** Longest `argsPreview`, in characters. */
export const ARGS_PREVIEW_CHARS = 500;
/** Longest `message`, in characters. */
export const MESSAGE_CHARS = 500;

/** Who started a run when nothing names anyone: the local user of a server without keys. */
export const LOCAL_STARTER = "local";

/**
 * Who started a run, as the inbox says it: `trigger:<id>`, `public:<publicId>` for a public chat's visitor,
 * else the key's name (`origin.startedBy`); a background task's is its turn's (`parent`).
 */
export function getStartedBy(run: RunRecord, parent?: RunRecord): string {
  if (run.trigger !== undefined) return `trigger:${run.trigger.id}`;
  if (run.publicId !== undefined) return `public:${run.publicId}`;
  if (run.startedBy !== undefined) return run.startedBy;
  return parent ? getStartedBy(parent) : LOCAL_STARTER;
}

/** A value as bounded JSON, for a person to judge at a glance. */
export function getArgsPreview(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const text = JSON.stringify(value) ?? String(value);
  return bound(text, ARGS_PREVIEW_CHARS);
}

function bound(text: string, chars: number): string {
  return text.length <= chars ? text : `${text.slice(0, chars - 1)}…`;
}

/** What the marks add to an item (none when it has no mark for its current pause or merge). */
function getMarkFields(mark: InboxMark | undefined): Pick<InboxItem, "assignee" | "snoozedUntil"> {
  return { assignee: mark?.assignee ?? null, snoozedUntil: mark?.snoozedUntil ?? null };
}

/** A paused run as an inbox item; undefined when it is not waiting (or is a test case's run). */
export function getPauseItem(
  run: RunRecord,
  options: { mark?: InboxMark; parent?: RunRecord },
): InboxItem | undefined {
  const { pause } = run;
  if (run.status !== "paused" || !pause || run.purpose === "test") return undefined;
  const tool = pause.payload["tool"];
  const argsPreview = getArgsPreview(pause.payload["args"]);
  // A guard's pause (reason `guard`) and the stuck breaker's say why in `message`; there are no args to judge.
  const message = pause.payload["message"];
  return {
    itemId: getPauseItemId(run.id),
    kind: "pause",
    agentId: run.agentId,
    agentVersion: run.agentVersion,
    ...(run.channel === undefined ? {} : { channel: run.channel }),
    runId: run.id,
    ...(run.sessionId === undefined ? {} : { sessionId: run.sessionId }),
    reason: pause.reason,
    ...(typeof tool === "string" ? { tool } : {}),
    ...(argsPreview === undefined ? {} : { argsPreview }),
    ...(typeof message === "string" && message !== "" ? { message: bound(message, MESSAGE_CHARS) } : {}),
    startedBy: getStartedBy(run, options.parent),
    createdAt: pause.pausedAt ?? run.startedAt ?? run.createdAt ?? new Date(0).toISOString(),
    ...getMarkFields(options.mark),
    dueAt: pause.dueAt ?? null,
    ...(pause.onTimeout === undefined ? {} : { onTimeout: pause.onTimeout }),
    resumeToken: pause.resumeToken,
  };
}

/** The run of the turn whose tasks a merge holds (a task's `parentRunId`), else its first task's run. */
export function getMergeRunId(session: SessionRecord, merge: PendingMerge): string {
  const first = merge.tasks[0];
  const task = first ? session.tasks.find((candidate) => candidate.taskId === first.taskId) : undefined;
  return task?.parentRunId ?? first?.runId ?? session.turns.at(-1)?.runId ?? "";
}

/**
 * A merge held for a person as an inbox item. `turnRun`: the run of the turn that spawned its tasks (who
 * started it); `createdAt`: when the server first noticed it (its mark), else the session's last change.
 */
export function getMergeItem(
  session: SessionRecord,
  merge: PendingMerge,
  options: { mark?: InboxMark; turnRun?: RunRecord },
): InboxItem {
  const argsPreview = getArgsPreview(
    merge.tasks.map((task) => ({ task: task.name, status: task.status, result: task.result })),
  );
  return {
    itemId: getMergeItemId(session.id, merge.mergeId),
    kind: "merge",
    agentId: session.agentId,
    agentVersion: session.agentVersion,
    ...(session.channel === undefined ? {} : { channel: session.channel }),
    runId: getMergeRunId(session, merge),
    sessionId: session.id,
    reason: merge.name,
    ...(argsPreview === undefined ? {} : { argsPreview }),
    startedBy: options.turnRun ? getStartedBy(options.turnRun) : LOCAL_STARTER,
    createdAt: options.mark?.createdNoticedAt ?? session.updatedAt,
    ...getMarkFields(options.mark),
    dueAt: null,
    mergeId: merge.mergeId,
  };
}
