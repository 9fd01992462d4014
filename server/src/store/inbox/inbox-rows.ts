import type { InboxMark, InboxNotice } from "./inbox-store.js";

/** A row of `inbox_marks` (SQLite and PostgreSQL alike: every column is text). */
export interface InboxMarkRow {
  item_id: string;
  token: string;
  assignee: string | null;
  snoozed_until: string | null;
  created_noticed_at: string | null;
  due_soon_noticed_at: string | null;
  updated_at: string;
}

export function toInboxMark(row: InboxMarkRow): InboxMark {
  return {
    itemId: row.item_id,
    token: row.token,
    assignee: row.assignee,
    snoozedUntil: row.snoozed_until,
    createdNoticedAt: row.created_noticed_at,
    dueSoonNoticedAt: row.due_soon_noticed_at,
    updatedAt: row.updated_at,
  };
}

const NOTICE_COLUMNS: Record<InboxNotice, "created_noticed_at" | "due_soon_noticed_at"> = {
  created: "created_noticed_at",
  due_soon: "due_soon_noticed_at",
};

/** The columns a mark keeps while its token stays; a new token clears them. */
const KEPT_COLUMNS = ["assignee", "snoozed_until", "created_noticed_at", "due_soon_noticed_at"] as const;
type KeptColumn = (typeof KEPT_COLUMNS)[number];

/** A statement's `i`-th placeholder (from 1). */
export type Placeholder = (index: number) => string;

/**
 * One upsert of a mark (SQLite ≥ 3.35 and PostgreSQL alike): the given columns take their values; the
 * others keep theirs while the token is the same and are cleared when it is not. `onlyIf` limits the update
 * of an existing row (a notice claimed once). `placeholder(i)` (from 1) is `?` in SQLite, `$i` in PostgreSQL;
 * the parameters are the item id, the token, the given values in `KEPT_COLUMNS` order, then `updated_at`.
 */
function getUpsert(
  values: Partial<Record<KeptColumn, string | null>>,
  options: { placeholder: Placeholder; onlyIf?: string; returning?: boolean },
): { sql: string; params: (string | null)[] } {
  const given = KEPT_COLUMNS.filter((column) => values[column] !== undefined);
  const columns = ["item_id", "token", ...given, "updated_at"];
  const sets = [
    "token = excluded.token",
    ...KEPT_COLUMNS.map((column) =>
      given.includes(column)
        ? `${column} = excluded.${column}`
        : `${column} = CASE WHEN inbox_marks.token = excluded.token THEN inbox_marks.${column} ELSE NULL END`,
    ),
    "updated_at = excluded.updated_at",
  ];
  const sql =
    `INSERT INTO inbox_marks (${columns.join(", ")}) VALUES (${columns.map((_, i) => options.placeholder(i + 1)).join(", ")})
     ON CONFLICT (item_id) DO UPDATE SET ${sets.join(", ")}` +
    (options.onlyIf ? ` WHERE ${options.onlyIf}` : "") +
    (options.returning ? " RETURNING *" : "");
  return { sql, params: given.map((column) => values[column] ?? null) };
}

/** The upsert of `InboxMarkStore.set`; params after item id and token, before `now`. */
export function getSetMarkSql(
  change: { assignee?: string | null; snoozedUntil?: string | null },
  placeholder: Placeholder,
): { sql: string; params: (string | null)[] } {
  return getUpsert(
    {
      ...(change.assignee === undefined ? {} : { assignee: change.assignee }),
      ...(change.snoozedUntil === undefined ? {} : { snoozed_until: change.snoozedUntil }),
    },
    { placeholder, returning: true },
  );
}

/** The upsert of `InboxMarkStore.claimNotice`: writes (one row changed) only while the notice is unclaimed. */
export function getClaimNoticeSql(
  notice: InboxNotice,
  now: string,
  placeholder: Placeholder,
): { sql: string; params: (string | null)[] } {
  const column = NOTICE_COLUMNS[notice];
  return getUpsert(
    { [column]: now },
    { placeholder, onlyIf: `inbox_marks.token <> excluded.token OR inbox_marks.${column} IS NULL` },
  );
}
