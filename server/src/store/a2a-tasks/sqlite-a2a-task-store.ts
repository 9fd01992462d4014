import type Database from "better-sqlite3";
import type { A2aTaskRecord, A2aTaskStore } from "./a2a-task-store.js";

export interface A2aTaskRow {
  task_id: string;
  agent_id: string;
  context_id: string;
  run_id: string | null;
  task: string;
  updated_at: number | string;
}

/** A2A tasks in the SQLite store's `a2a_tasks` table. */
export class SqliteA2aTaskStore implements A2aTaskStore {
  constructor(private readonly db: Database.Database) {}

  async save(record: A2aTaskRecord): Promise<void> {
    this.db
      .prepare(
        `INSERT INTO a2a_tasks (task_id, agent_id, context_id, run_id, task, updated_at)
         VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (task_id) DO UPDATE SET agent_id = excluded.agent_id, context_id = excluded.context_id,
           run_id = excluded.run_id, task = excluded.task, updated_at = excluded.updated_at`,
      )
      .run(
        record.taskId,
        record.agentId,
        record.contextId,
        record.runId ?? null,
        JSON.stringify(record.task),
        record.updatedAt,
      );
  }

  async get(taskId: string): Promise<A2aTaskRecord | undefined> {
    const row = this.db.prepare("SELECT * FROM a2a_tasks WHERE task_id = ?").get(taskId) as
      A2aTaskRow | undefined;
    return row && toA2aTaskRecord(row);
  }

  async list(query: { agentId: string; contextId?: string; limit: number }): Promise<A2aTaskRecord[]> {
    const rows = (
      query.contextId === undefined
        ? this.db
            .prepare(
              "SELECT * FROM a2a_tasks WHERE agent_id = ? ORDER BY updated_at DESC, task_id DESC LIMIT ?",
            )
            .all(query.agentId, query.limit)
        : this.db
            .prepare(
              `SELECT * FROM a2a_tasks WHERE agent_id = ? AND context_id = ?
               ORDER BY updated_at DESC, task_id DESC LIMIT ?`,
            )
            .all(query.agentId, query.contextId, query.limit)
    ) as A2aTaskRow[];
    return rows.map(toA2aTaskRecord);
  }
}

export function toA2aTaskRecord(row: A2aTaskRow): A2aTaskRecord {
  return {
    taskId: row.task_id,
    agentId: row.agent_id,
    contextId: row.context_id,
    ...(row.run_id === null ? {} : { runId: row.run_id }),
    task: JSON.parse(row.task) as unknown,
    updatedAt: Number(row.updated_at),
  };
}
