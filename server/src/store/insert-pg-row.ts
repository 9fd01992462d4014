import type { Query } from "./pg-connection.js";
import { getInsertParts, type SqlRow } from "./sql-rows.js";

/** PostgreSQL's numbered parameters: `$1`, `$2`… */
export function pgParameter(index: number): string {
  return `$${index}`;
}

/**
 * Inserts `row` into `table`. With `replaceOn` (the table's key columns), a row with the same key gets
 * `row`'s other columns instead, as SQLite's `INSERT OR REPLACE` does.
 */
export async function insertPgRow(
  query: Query,
  table: string,
  row: SqlRow,
  options: { replaceOn?: readonly string[] } = {},
): Promise<void> {
  const { columns, values, params } = getInsertParts(row, pgParameter);
  const { replaceOn } = options;
  const replace = replaceOn
    ? ` ON CONFLICT (${replaceOn.join(", ")}) DO UPDATE SET ${Object.keys(row)
        .filter((column) => !replaceOn.includes(column))
        .map((column) => `${column} = EXCLUDED.${column}`)
        .join(", ")}`
    : "";
  await query(`INSERT INTO ${table} (${columns}) VALUES (${values})${replace}`, params);
}
