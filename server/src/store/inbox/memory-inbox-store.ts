import type { InboxMark, InboxMarkKey, InboxMarkStore, InboxNotice } from "./inbox-store.js";

const NOTICE_FIELDS = { created: "createdNoticedAt", due_soon: "dueSoonNoticedAt" } as const;

/** The inbox's marks in a Map, for the in-memory store. */
export class MemoryInboxStore implements InboxMarkStore {
  private readonly marks = new Map<string, InboxMark>();

  async get(items: readonly InboxMarkKey[]): Promise<Map<string, InboxMark>> {
    const found = new Map<string, InboxMark>();
    for (const { itemId, token } of items) {
      const mark = this.marks.get(itemId);
      if (mark?.token === token) found.set(itemId, { ...mark });
    }
    return found;
  }

  async set(
    options: InboxMarkKey & { assignee?: string | null; snoozedUntil?: string | null; now: string },
  ): Promise<InboxMark> {
    const mark = {
      ...this.current(options),
      ...(options.assignee === undefined ? {} : { assignee: options.assignee }),
      ...(options.snoozedUntil === undefined ? {} : { snoozedUntil: options.snoozedUntil }),
      updatedAt: options.now,
    };
    this.marks.set(mark.itemId, mark);
    return { ...mark };
  }

  async claimNotice(options: InboxMarkKey & { notice: InboxNotice; now: string }): Promise<boolean> {
    const field = NOTICE_FIELDS[options.notice];
    const mark = this.current(options);
    if (mark[field] !== null) return false;
    this.marks.set(mark.itemId, { ...mark, [field]: options.now, updatedAt: options.now });
    return true;
  }

  /** The item's mark for its token: a clean one when there is none or it was another token's. */
  private current({ itemId, token }: InboxMarkKey): InboxMark {
    const mark = this.marks.get(itemId);
    if (mark?.token === token) return { ...mark };
    return {
      itemId,
      token,
      assignee: null,
      snoozedUntil: null,
      createdNoticedAt: null,
      dueSoonNoticedAt: null,
      updatedAt: "",
    };
  }
}
