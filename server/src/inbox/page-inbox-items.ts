import type { InboxItem, InboxQuery, InboxResponse } from "@waddle/protocol";
import { z } from "zod";
import { ApiError } from "../shared/api-error.js";

/** Items a page holds unless `limit` says otherwise. */
export const INBOX_PAGE_DEFAULT = 50;

/** Where the next page starts: after the item with this time and id (newest first). */
const Cursor = z.tuple([z.string().min(1).max(100), z.string().min(1).max(300)]);

function encodeCursor(item: InboxItem): string {
  return Buffer.from(JSON.stringify([item.createdAt, item.itemId])).toString("base64url");
}

function decodeCursor(cursor: string): [string, string] {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    value = undefined;
  }
  const parsed = Cursor.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new ApiError(
    "validation_failed",
    'Fix the query parameter "cursor": pass the nextCursor of the last page.',
    {
      where: "query",
      issues: [{ path: "$.cursor", message: "not a cursor this server gave" }],
    },
  );
}

/** True while the item is snoozed at `now`. */
export function isSnoozed(item: InboxItem, now: number): boolean {
  return item.snoozedUntil !== null && item.snoozedUntil !== undefined && Date.parse(item.snoozedUntil) > now;
}

/** Newest first; the item id breaks ties, so that a page boundary never skips or repeats an item. */
export function compareInboxItems(a: InboxItem, b: InboxItem): number {
  return b.createdAt.localeCompare(a.createdAt) || b.itemId.localeCompare(a.itemId);
}

/**
 * One page of the inbox: the items the caller may see (`visible`, already scoped), filtered by the query,
 * newest first, after the cursor. `openCount` counts every visible item not snoozed, whatever the filters.
 */
export function pageInboxItems(visible: readonly InboxItem[], query: InboxQuery, now: number): InboxResponse {
  const state = query.state ?? "open";
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  const limit = query.limit ?? INBOX_PAGE_DEFAULT;
  const matching = visible
    .filter((item) => query.agentId === undefined || item.agentId === query.agentId)
    .filter((item) => query.kind === undefined || item.kind === query.kind)
    .filter((item) =>
      query.assignee === undefined
        ? true
        : query.assignee === "none"
          ? (item.assignee ?? null) === null
          : item.assignee === query.assignee,
    )
    .filter((item) => state === "all" || (state === "snoozed") === isSnoozed(item, now))
    .sort(compareInboxItems)
    .filter(
      (item) =>
        after === undefined ||
        item.createdAt < after[0] ||
        (item.createdAt === after[0] && item.itemId < after[1]),
    );
  const items = matching.slice(0, limit);
  const last = items.at(-1);
  return {
    items,
    nextCursor: matching.length > limit && last ? encodeCursor(last) : null,
    openCount: visible.filter((item) => !isSnoozed(item, now)).length,
  };
}
