import type { CallRecord } from "@waddle/planner";
import type { PgQuery } from "../request-keys/pg-request-key-store.js";
import { parseStoredCallRecord, type CallRecordStore } from "./call-record-store.js";

/** Call records in the PostgreSQL store's `run_call_records` table (migration 8). */
export class PgCallRecordStore implements CallRecordStore {
  constructor(private readonly query: PgQuery) {}

  async append(runId: string, records: readonly CallRecord[]): Promise<void> {
    if (records.length === 0) return;
    // One statement: the records take the numbers after the run's last one, in their order.
    await this.query(
      `INSERT INTO run_call_records (run_id, seq, record)
       SELECT $1, COALESCE((SELECT MAX(seq) FROM run_call_records WHERE run_id = $1), 0) + item.ordinality, item.value
       FROM unnest($2::text[]) WITH ORDINALITY AS item(value, ordinality)`,
      [runId, records.map((record) => JSON.stringify(record))],
      "write",
    );
  }

  async list(runId: string): Promise<CallRecord[]> {
    const { rows } = await this.query(
      "SELECT record FROM run_call_records WHERE run_id = $1 ORDER BY seq",
      [runId],
      "read",
    );
    return (rows as { record: string }[]).flatMap((row) => parseStoredCallRecord(row.record) ?? []);
  }
}
