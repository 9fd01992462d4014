import type { RunPatch } from "./waddle-store.js";
import { RUN_COLUMNS } from "./sql-rows.js";

/**
 * `SET` fragments and their parameters for a run patch, numbered from `$firstIndex`: JSON fields as text,
 * `leaseMs` as a lease ending that long after PostgreSQL's clock (every instance reads the same clock).
 */
export function getPgRunSets(patch: RunPatch, firstIndex: number): { sets: string[]; params: unknown[] } {
  const sets: string[] = [];
  const params: unknown[] = [];
  for (const [key, value] of Object.entries(patch) as [keyof RunPatch, unknown][]) {
    const column = RUN_COLUMNS[key];
    if (value === undefined || !column) continue;
    if (key === "leaseMs") {
      if (value === null) sets.push("lease_until = NULL");
      else {
        params.push(value);
        sets.push(
          `lease_until = clock_timestamp() + $${firstIndex + params.length - 1} * interval '1 millisecond'`,
        );
      }
      continue;
    }
    params.push(column.json ? (value === null ? null : JSON.stringify(value)) : value);
    sets.push(`${column.column} = $${firstIndex + params.length - 1}`);
  }
  return { sets, params };
}
