import type Database from "better-sqlite3";
import { fencedError, runNotFoundError } from "./store-errors.js";
import { RUN_COLUMNS, type SqlValue } from "./sql-rows.js";
import type { RunPatch } from "./waddle-store.js";

/** A prepared statement for `text`, prepared once per store. */
export type Sql = (text: string) => Database.Statement;

/** A value as better-sqlite3 binds it: it takes no booleans. */
export function toSqliteValue(value: SqlValue): Exclude<SqlValue, boolean> {
  return typeof value === "boolean" ? Number(value) : value;
}

/** Refuses (`fenced`) unless the run's epoch is still `epoch`; inside the write's transaction. */
export function assertSqliteFence(sql: Sql, runId: string, epoch: number): void {
  const row = sql("SELECT epoch FROM runs WHERE id = ?").get(runId) as { epoch: number } | undefined;
  if (!row) throw runNotFoundError(runId);
  if (row.epoch !== epoch) throw fencedError(runId, epoch, row.epoch);
}

/** Writes a run's patch (`undefined` keeps a column, `null` clears it); `not_found` for an unknown run. */
export function patchSqliteRun(sql: Sql, id: string, patch: RunPatch): void {
  const sets: string[] = [];
  const params: unknown[] = [];
  for (const [key, value] of Object.entries(patch) as [keyof RunPatch, unknown][]) {
    const column = RUN_COLUMNS[key];
    if (value === undefined || !column) continue;
    sets.push(`${column.column} = ?`);
    params.push(
      key === "leaseMs"
        ? value === null
          ? null
          : Date.now() + (value as number)
        : column.json
          ? value === null
            ? null
            : JSON.stringify(value)
          : toSqliteValue(value as SqlValue),
    );
  }
  if (sets.length === 0) {
    if (!sql("SELECT 1 FROM runs WHERE id = ?").get(id)) throw runNotFoundError(id);
    return;
  }
  const changes = sql(`UPDATE runs SET ${sets.join(", ")} WHERE id = ?`).run(...params, id).changes;
  if (changes === 0) throw runNotFoundError(id);
}
