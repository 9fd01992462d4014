import type { AgentDraft } from "@waddle/protocol";

/**
 * The unsaved edits of each agent (one draft per agent), kept so that a reload, a crash or another browser
 * brings them back. SQLite, PostgreSQL and in-memory, under one conformance suite (`draft-store-cases.ts`).
 */
export interface DraftStore {
  get(agentId: string): Promise<AgentDraft | undefined>;
  /** Replaces the agent's draft. */
  put(draft: AgentDraft): Promise<void>;
  /** False when there was none. */
  delete(agentId: string): Promise<boolean>;
}
