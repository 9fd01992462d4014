import type { InboxItem } from "@waddle/protocol";

/** Newest first, as the server lists them; a tie keeps the newcomer first. */
const isNewer = (a: InboxItem, b: InboxItem) => a.createdAt >= b.createdAt;

/**
 * The list with `item` put in its place (or replaced where it is), or taken out when it no longer passes
 * the page's filters. The same array comes back when nothing changes.
 */
export function upsertInboxItem(
  items: readonly InboxItem[],
  item: InboxItem,
  passes: boolean,
): readonly InboxItem[] {
  const at = items.findIndex((candidate) => candidate.itemId === item.itemId);
  if (!passes) return at === -1 ? items : items.filter((candidate) => candidate.itemId !== item.itemId);
  if (at !== -1) return items.map((candidate, index) => (index === at ? item : candidate));
  const before = items.findIndex((candidate) => isNewer(item, candidate));
  return before === -1 ? [...items, item] : [...items.slice(0, before), item, ...items.slice(before)];
}

/** The list without the item (same array when it was not there). */
export function removeInboxItem(items: readonly InboxItem[], itemId: string): readonly InboxItem[] {
  return items.some((item) => item.itemId === itemId)
    ? items.filter((item) => item.itemId !== itemId)
    : items;
}

/** A next page appended, without the items a live update already brought in. */
export function appendInboxPage(
  items: readonly InboxItem[],
  page: readonly InboxItem[],
): readonly InboxItem[] {
  const known = new Set(items.map((item) => item.itemId));
  return [...items, ...page.filter((item) => !known.has(item.itemId))];
}
