/**
 * An A2A task as this server keeps it: the task the A2A SDK saves (JSON, as the SDK wrote it), the
 * Waddle run it maps to and its context (a Waddle session). `tasks/get` reads it back after a restart
 * and on any instance.
 */
export interface A2aTaskRecord {
  taskId: string;
  agentId: string;
  contextId: string;
  /** Unset until the task's run has started. */
  runId?: string;
  /** The A2A task document, as the SDK saved it. */
  task: unknown;
  updatedAt: number;
}

/** A2A tasks; SQLite, PostgreSQL and in-memory, under one conformance suite. */
export interface A2aTaskStore {
  /** Inserts or replaces the task with this id. */
  save(record: A2aTaskRecord): Promise<void>;
  get(taskId: string): Promise<A2aTaskRecord | undefined>;
  /** An agent's tasks (of one context when `contextId` is set), the last saved first, at most `limit`. */
  list(query: { agentId: string; contextId?: string; limit: number }): Promise<A2aTaskRecord[]>;
}
