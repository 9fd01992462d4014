import type { A2aTaskRecord, A2aTaskStore } from "./a2a-task-store.js";

/** A2A tasks in a Map, for the in-memory store. Values are copied in and out. */
export class MemoryA2aTaskStore implements A2aTaskStore {
  private readonly records = new Map<string, A2aTaskRecord>();

  async save(record: A2aTaskRecord): Promise<void> {
    this.records.set(record.taskId, structuredClone(record));
  }

  async get(taskId: string): Promise<A2aTaskRecord | undefined> {
    const record = this.records.get(taskId);
    return record && structuredClone(record);
  }

  async list(query: { agentId: string; contextId?: string; limit: number }): Promise<A2aTaskRecord[]> {
    return [...this.records.values()]
      .filter(
        (record) =>
          record.agentId === query.agentId &&
          (query.contextId === undefined || record.contextId === query.contextId),
      )
      .sort((a, b) => b.updatedAt - a.updatedAt || (a.taskId < b.taskId ? 1 : a.taskId > b.taskId ? -1 : 0))
      .slice(0, query.limit)
      .map((record) => structuredClone(record));
  }
}
