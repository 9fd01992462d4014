import { fencedError, runNotFoundError, seqGapError } from "./store-errors.js";
import type { Query } from "./pg-connection.js";
import { getPgRunSets } from "./pg-run-patch.js";
import { insertPgRow } from "./insert-pg-row.js";
import { getEventRow, getTaskRow } from "./sql-rows.js";
import { StoreError, type EventEntry, type RunPatch } from "./waddle-store.js";

// A run's writes inside a transaction: the fence, its events with what they change, its row's patches.

/** Refuses (`fenced`) unless the run's epoch is still `epoch`; locks the run's row until the commit. */
export async function assertFence(query: Query, runId: string, epoch: number): Promise<void> {
  const { rows } = await query("SELECT epoch FROM runs WHERE id = $1 FOR UPDATE", [runId]);
  const row = rows[0] as { epoch: number } | undefined;
  if (!row) throw runNotFoundError(runId);
  if (row.epoch !== epoch) throw fencedError(runId, epoch, row.epoch);
}

export async function appendRunEvents(
  query: Query,
  runId: string,
  entries: readonly EventEntry[],
): Promise<void> {
  const first = entries[0]!.event.seq;
  entries.forEach((entry, index) => {
    if (entry.event.seq !== first + index) {
      throw seqGapError(runId, entry.event.seq, first + index - 1);
    }
  });
  const last = first + entries.length - 1;
  const advanced = await query("UPDATE runs SET last_seq = $1 WHERE id = $2 AND last_seq = $3", [
    last,
    runId,
    first - 1,
  ]);
  if (advanced.rowCount === 0) {
    const { rows } = await query("SELECT last_seq FROM runs WHERE id = $1", [runId]);
    const lastSeq = rows[0]?.last_seq as number | undefined;
    if (lastSeq === undefined) throw runNotFoundError(runId);
    throw seqGapError(runId, first, lastSeq);
  }
  const rows = entries.map((entry) => getEventRow(entry.event));
  await query(
    `INSERT INTO run_events (run_id, seq, type, event)
       SELECT $1, * FROM unnest($2::integer[], $3::text[], $4::text[])`,
    [runId, rows.map((row) => row.seq), rows.map((row) => row.type), rows.map((row) => row.event)],
  );
  const patch: RunPatch = {};
  for (const entry of entries) Object.assign(patch, entry.options?.run);
  if (Object.keys(patch).length > 0) await patchRun(query, runId, patch);
  for (const entry of entries) {
    const task = entry.options?.task;
    if (!task) continue;
    await insertPgRow(query, "tasks", getTaskRow(task), { replaceOn: ["run_id", "task_id"] });
  }
}

export async function patchRun(query: Query, id: string, patch: RunPatch): Promise<void> {
  const { sets, params } = getPgRunSets(patch, 2);
  const result =
    sets.length === 0
      ? await query("SELECT 1 FROM runs WHERE id = $1", [id])
      : await query(`UPDATE runs SET ${sets.join(", ")} WHERE id = $1`, [id, ...params]);
  if ((result.rowCount ?? 0) === 0) throw runNotFoundError(id);
}

export function isStoreError(error: unknown, code: string): error is StoreError {
  return error instanceof StoreError && error.code === code;
}
