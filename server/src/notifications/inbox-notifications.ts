import type { InboxItem } from "@waddle/protocol";
import type { NotificationData, NotifyFunction } from "./notify.js";

/** An event of the approvals inbox as it emits them (server/src/inbox/inbox-events.ts), read as data. */
export interface InboxNotice {
  /** Stable across instances: `<type>:<itemId>:<token>`. */
  id: string;
  type: "pause.created" | "pause.due_soon" | "pause.timed_out" | "merge.pending";
  at: string;
  item: InboxItem;
  /** `pause.timed_out`: what the server decided. */
  decision?: string;
}

/** Where the inbox's events come from (`Inbox.events`). */
export interface InboxNoticeSource {
  on(listener: (notice: InboxNotice) => void): () => void;
}

/**
 * The inbox's events as notifications: each is emitted once across instances (the inbox's claim), so
 * each notifies once. Never the arguments: a target outside may not see what a person judges in the inbox.
 * A merge links to its session (where it is decided), a pause to its run.
 */
export function createInboxListener(notify: NotifyFunction): (notice: InboxNotice) => void {
  return (notice) => {
    const { item } = notice;
    const data: NotificationData = {
      agentId: item.agentId,
      agentVersion: item.agentVersion,
      ...(item.kind === "merge" ? { turnRunId: item.runId } : { runId: item.runId }),
      ...(item.sessionId === undefined ? {} : { sessionId: item.sessionId }),
      ...(item.channel === undefined ? {} : { channel: item.channel }),
      itemId: item.itemId,
      inboxEventId: notice.id,
      reason: item.reason,
      ...(item.tool === undefined ? {} : { tool: item.tool }),
      // A guard's sentence says what it found by kind and count: never the text, so it may go out.
      ...(item.reason === "guard" && item.message !== undefined ? { message: item.message } : {}),
      ...(item.mergeId === undefined ? {} : { mergeId: item.mergeId }),
      startedBy: item.startedBy,
      ...(item.assignee ? { assignee: item.assignee } : {}),
      ...(item.dueAt ? { dueAt: item.dueAt } : {}),
      ...(notice.decision === undefined ? {} : { decision: notice.decision }),
    };
    notify(notice.type, data);
  };
}
