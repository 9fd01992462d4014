import type { PgQuery } from "../request-keys/pg-request-key-store.js";
import type { InboxMark, InboxMarkKey, InboxMarkStore, InboxNotice } from "./inbox-store.js";
import { getClaimNoticeSql, getSetMarkSql, toInboxMark, type InboxMarkRow } from "./inbox-rows.js";

const placeholder = (index: number) => `$${index}`;

/**
 * The inbox's marks in the PostgreSQL store (`inbox_marks`, migration 17). Each write is one upsert, so
 * that of two instances claiming one notice, the second sees the first's row (`ON CONFLICT` waits for it).
 */
export class PgInboxStore implements InboxMarkStore {
  constructor(private readonly query: PgQuery) {}

  async get(items: readonly InboxMarkKey[]): Promise<Map<string, InboxMark>> {
    if (items.length === 0) return new Map();
    const { rows } = await this.query("SELECT * FROM inbox_marks WHERE item_id = ANY($1)", [
      items.map((item) => item.itemId),
    ]);
    const tokens = new Map(items.map((item) => [item.itemId, item.token]));
    return new Map(
      (rows as InboxMarkRow[])
        .filter((row) => tokens.get(row.item_id) === row.token)
        .map((row) => [row.item_id, toInboxMark(row)]),
    );
  }

  async set(
    options: InboxMarkKey & { assignee?: string | null; snoozedUntil?: string | null; now: string },
  ): Promise<InboxMark> {
    const { sql, params } = getSetMarkSql(options, placeholder);
    const { rows } = await this.query(sql, [options.itemId, options.token, ...params, options.now], "write");
    return toInboxMark(rows[0] as InboxMarkRow);
  }

  async claimNotice(options: InboxMarkKey & { notice: InboxNotice; now: string }): Promise<boolean> {
    const { sql, params } = getClaimNoticeSql(options.notice, options.now, placeholder);
    const result = await this.query(sql, [options.itemId, options.token, ...params, options.now], "write");
    return result.rowCount === 1;
  }
}
