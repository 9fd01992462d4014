/**
 * What the approvals inbox adds to one waiting item (a paused run, a merge held for a person): who it is
 * assigned to, until when it is snoozed, and which notices the server sent for it. The item itself stays
 * where it is (the run, the session); a mark belongs to one pause or merge (`token`), so that a run that
 * pauses again starts with a clean one.
 */
export interface InboxMark {
  /** `pause:<runId>` or `merge:<sessionId>:<mergeId>`. */
  itemId: string;
  /** The pause's resume token, or the merge's id. */
  token: string;
  assignee: string | null;
  snoozedUntil: string | null;
  /** When the server first noticed the item (and announced it: `pause.created`, `merge.pending`). */
  createdNoticedAt: string | null;
  /** When `pause.due_soon` was announced. */
  dueSoonNoticedAt: string | null;
  updatedAt: string;
}

/** A notice the server sends once per item, whichever instance sees the item first. */
export type InboxNotice = "created" | "due_soon";

/** One item as the marks know it: its id and its current pause or merge. */
export interface InboxMarkKey {
  itemId: string;
  token: string;
}

/** The inbox's marks: SQLite (migration 20), PostgreSQL (migration 17) and in memory, one conformance suite. */
export interface InboxMarkStore {
  /** The marks of these items that belong to their current token (a mark of an earlier pause is void). */
  get(items: readonly InboxMarkKey[]): Promise<Map<string, InboxMark>>;
  /**
   * Sets the assignee and/or the snooze (`undefined` keeps, `null` clears) of the item's current token: a
   * mark of another token is replaced by a clean one first. One statement: concurrent writes never mix.
   */
  set(
    options: InboxMarkKey & { assignee?: string | null; snoozedUntil?: string | null; now: string },
  ): Promise<InboxMark>;
  /**
   * Claims a notice of the item's current token: true for exactly one of any number of concurrent claims
   * (on every instance), false once it was claimed. The caller that gets true sends the notice.
   */
  claimNotice(options: InboxMarkKey & { notice: InboxNotice; now: string }): Promise<boolean>;
}
