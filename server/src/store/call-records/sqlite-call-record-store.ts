import type Database from "better-sqlite3";
import type { CallRecord } from "@waddle/planner";
import { parseStoredCallRecord, type CallRecordStore } from "./call-record-store.js";
import { writeTransaction } from "../sqlite-write-transaction.js";

/** Call records in the SQLite store's `run_call_records` table (migration 11). */
export class SqliteCallRecordStore implements CallRecordStore {
  constructor(private readonly db: Database.Database) {}

  async append(runId: string, records: readonly CallRecord[]): Promise<void> {
    if (records.length === 0) return;
    const last = this.db.prepare("SELECT MAX(seq) AS seq FROM run_call_records WHERE run_id = ?");
    const insert = this.db.prepare("INSERT INTO run_call_records (run_id, seq, record) VALUES (?, ?, ?)");
    writeTransaction(this.db, () => {
      let seq = ((last.get(runId) as { seq: number | null }).seq ?? 0) + 1;
      for (const record of records) insert.run(runId, seq++, JSON.stringify(record));
    })();
  }

  async list(runId: string): Promise<CallRecord[]> {
    const rows = this.db
      .prepare("SELECT record FROM run_call_records WHERE run_id = ? ORDER BY seq")
      .all(runId) as { record: string }[];
    return rows.flatMap((row) => parseStoredCallRecord(row.record) ?? []);
  }
}
