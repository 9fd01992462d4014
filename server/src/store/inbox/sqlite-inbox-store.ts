import type Database from "better-sqlite3";
import type { InboxMark, InboxMarkKey, InboxMarkStore, InboxNotice } from "./inbox-store.js";
import { getClaimNoticeSql, getSetMarkSql, toInboxMark, type InboxMarkRow } from "./inbox-rows.js";

/** The inbox's marks in the SQLite store (`inbox_marks`, migration 20). */
export class SqliteInboxStore implements InboxMarkStore {
  constructor(private readonly db: Database.Database) {}

  async get(items: readonly InboxMarkKey[]): Promise<Map<string, InboxMark>> {
    if (items.length === 0) return new Map();
    const rows = this.db
      .prepare("SELECT * FROM inbox_marks WHERE item_id IN (SELECT value FROM json_each(?))")
      .all(JSON.stringify(items.map((item) => item.itemId))) as InboxMarkRow[];
    const tokens = new Map(items.map((item) => [item.itemId, item.token]));
    return new Map(
      rows
        .filter((row) => tokens.get(row.item_id) === row.token)
        .map((row) => [row.item_id, toInboxMark(row)]),
    );
  }

  async set(
    options: InboxMarkKey & { assignee?: string | null; snoozedUntil?: string | null; now: string },
  ): Promise<InboxMark> {
    const { sql, params } = getSetMarkSql(options, () => "?");
    const row = this.db
      .prepare(sql)
      .get(options.itemId, options.token, ...params, options.now) as InboxMarkRow;
    return toInboxMark(row);
  }

  async claimNotice(options: InboxMarkKey & { notice: InboxNotice; now: string }): Promise<boolean> {
    const { sql, params } = getClaimNoticeSql(options.notice, options.now, () => "?");
    return this.db.prepare(sql).run(options.itemId, options.token, ...params, options.now).changes === 1;
  }
}
