import type { A2aTaskRecord, A2aTaskStore } from "./a2a-task-store.js";
import type { PgQuery } from "../request-keys/pg-request-key-store.js";
import { toA2aTaskRecord, type A2aTaskRow } from "./sqlite-a2a-task-store.js";

/** A2A tasks in the PostgreSQL store's `a2a_tasks` table. */
export class PgA2aTaskStore implements A2aTaskStore {
  constructor(private readonly query: PgQuery) {}

  async save(record: A2aTaskRecord): Promise<void> {
    await this.query(
      `INSERT INTO a2a_tasks (task_id, agent_id, context_id, run_id, task, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (task_id) DO UPDATE SET agent_id = EXCLUDED.agent_id, context_id = EXCLUDED.context_id,
         run_id = EXCLUDED.run_id, task = EXCLUDED.task, updated_at = EXCLUDED.updated_at`,
      [
        record.taskId,
        record.agentId,
        record.contextId,
        record.runId ?? null,
        JSON.stringify(record.task),
        record.updatedAt,
      ],
      "write",
    );
  }

  async get(taskId: string): Promise<A2aTaskRecord | undefined> {
    const { rows } = await this.query("SELECT * FROM a2a_tasks WHERE task_id = $1", [taskId]);
    return rows[0] ? toA2aTaskRecord(rows[0] as A2aTaskRow) : undefined;
  }

  async list(query: { agentId: string; contextId?: string; limit: number }): Promise<A2aTaskRecord[]> {
    const { rows } =
      query.contextId === undefined
        ? await this.query(
            "SELECT * FROM a2a_tasks WHERE agent_id = $1 ORDER BY updated_at DESC, task_id DESC LIMIT $2",
            [query.agentId, query.limit],
          )
        : await this.query(
            `SELECT * FROM a2a_tasks WHERE agent_id = $1 AND context_id = $2
             ORDER BY updated_at DESC, task_id DESC LIMIT $3`,
            [query.agentId, query.contextId, query.limit],
          );
    return rows.map((row) => toA2aTaskRecord(row as A2aTaskRow));
  }
}
