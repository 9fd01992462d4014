import type { AgentDraft } from "@waddle/protocol";
import type { PgQuery } from "../request-keys/pg-request-key-store.js";
import type { DraftStore } from "./draft-store.js";
import { toDraft, type DraftRow } from "./sqlite-draft-store.js";

/** Drafts in the PostgreSQL store's `agent_drafts` table (migration 6), so every instance sees them. */
export class PgDraftStore implements DraftStore {
  constructor(private readonly query: PgQuery) {}

  async get(agentId: string): Promise<AgentDraft | undefined> {
    const { rows } = await this.query("SELECT * FROM agent_drafts WHERE agent_id = $1", [agentId], "read");
    return rows[0] ? toDraft(rows[0] as DraftRow) : undefined;
  }

  async put(draft: AgentDraft): Promise<void> {
    await this.query(
      `INSERT INTO agent_drafts (agent_id, base_version, spec, updated_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (agent_id) DO UPDATE SET base_version = EXCLUDED.base_version, spec = EXCLUDED.spec,
         updated_at = EXCLUDED.updated_at`,
      [draft.agentId, draft.baseVersion, JSON.stringify(draft.spec), draft.updatedAt],
      "write",
    );
  }

  async delete(agentId: string): Promise<boolean> {
    const result = await this.query("DELETE FROM agent_drafts WHERE agent_id = $1", [agentId], "write");
    return (result.rowCount ?? 0) > 0;
  }
}
