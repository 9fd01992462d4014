import type { InboxItem, InboxItemKind, InboxQuery, InboxState } from "@waddle/protocol";

/**
 * The Inbox page's filters. `assignee`: null for anyone, `"me"` for the signed-in key's name, `"none"` for
 * unassigned items, or a key's name.
 */
export interface InboxFilter {
  agentId: string | null;
  kind: InboxItemKind | null;
  assignee: string | null;
  state: InboxState;
}

export const DEFAULT_INBOX_FILTER: InboxFilter = { agentId: null, kind: null, assignee: null, state: "open" };

/** The key's name `"me"` stands for (null while the page does not know who is signed in). */
const getAssignee = (filter: InboxFilter, me: string | null): string | null =>
  filter.assignee === "me" ? me : filter.assignee;

/** `GET /api/inbox`'s query for the filters (`"me"` sent as the key's own name). */
export function getInboxQuery(
  filter: InboxFilter,
  options: { me: string | null; cursor?: string | null; limit?: number },
): InboxQuery {
  const assignee = getAssignee(filter, options.me);
  return {
    ...(filter.agentId ? { agentId: filter.agentId } : {}),
    ...(filter.kind ? { kind: filter.kind } : {}),
    ...(assignee ? { assignee } : {}),
    state: filter.state,
    ...(options.cursor ? { cursor: options.cursor } : {}),
    ...(options.limit ? { limit: options.limit } : {}),
  };
}

/** True while the item is snoozed (its snooze ends after `now`). */
export function isSnoozed(item: Pick<InboxItem, "snoozedUntil">, now: number): boolean {
  if (!item.snoozedUntil) return false;
  const until = Date.parse(item.snoozedUntil);
  return Number.isFinite(until) && until > now;
}

/**
 * Whether a live item belongs in the list under these filters, as the server would answer (the socket
 * sends every item the key may see; the page keeps the ones its filters ask for).
 */
export function isInInboxFilter(
  item: InboxItem,
  filter: InboxFilter,
  options: { me: string | null; now: number },
): boolean {
  if (filter.agentId && item.agentId !== filter.agentId) return false;
  if (filter.kind && item.kind !== filter.kind) return false;
  const assignee = getAssignee(filter, options.me);
  if (assignee === "none" ? Boolean(item.assignee) : assignee !== null && item.assignee !== assignee)
    return false;
  const snoozed = isSnoozed(item, options.now);
  return filter.state === "all" || (filter.state === "snoozed") === snoozed;
}

/** Whether the filters differ from the default (the page offers "Clear filters" and says so when empty). */
export function isFiltered(filter: InboxFilter): boolean {
  return (
    filter.agentId !== null || filter.kind !== null || filter.assignee !== null || filter.state !== "open"
  );
}
