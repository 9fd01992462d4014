import type Database from "better-sqlite3";
import type { AgentDraft } from "@waddle/protocol";
import type { DraftStore } from "./draft-store.js";

export interface DraftRow {
  agent_id: string;
  base_version: number | null;
  spec: string;
  updated_at: string;
}

export function toDraft(row: DraftRow): AgentDraft {
  return {
    agentId: row.agent_id,
    baseVersion: row.base_version,
    spec: JSON.parse(row.spec) as Record<string, unknown>,
    updatedAt: row.updated_at,
  };
}

/** Drafts in the SQLite store's `agent_drafts` table (migration 9). */
export class SqliteDraftStore implements DraftStore {
  constructor(private readonly db: Database.Database) {}

  async get(agentId: string): Promise<AgentDraft | undefined> {
    const row = this.db.prepare("SELECT * FROM agent_drafts WHERE agent_id = ?").get(agentId) as
      DraftRow | undefined;
    return row ? toDraft(row) : undefined;
  }

  async put(draft: AgentDraft): Promise<void> {
    this.db
      .prepare(
        `INSERT INTO agent_drafts (agent_id, base_version, spec, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (agent_id) DO UPDATE SET base_version = excluded.base_version, spec = excluded.spec,
           updated_at = excluded.updated_at`,
      )
      .run(draft.agentId, draft.baseVersion, JSON.stringify(draft.spec), draft.updatedAt);
  }

  async delete(agentId: string): Promise<boolean> {
    return this.db.prepare("DELETE FROM agent_drafts WHERE agent_id = ?").run(agentId).changes > 0;
  }
}
