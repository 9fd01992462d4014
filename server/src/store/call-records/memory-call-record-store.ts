import type { CallRecord } from "@waddle/planner";
import type { CallRecordStore } from "./call-record-store.js";

/** Call records in memory (the memory store's). */
export class MemoryCallRecordStore implements CallRecordStore {
  private readonly byRun = new Map<string, CallRecord[]>();

  async append(runId: string, records: readonly CallRecord[]): Promise<void> {
    if (records.length === 0) return;
    const list = this.byRun.get(runId) ?? [];
    for (const record of records) list.push(structuredClone(record));
    this.byRun.set(runId, list);
  }

  async list(runId: string): Promise<CallRecord[]> {
    return structuredClone(this.byRun.get(runId) ?? []);
  }
}
