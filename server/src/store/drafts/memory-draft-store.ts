import type { AgentDraft } from "@waddle/protocol";
import type { DraftStore } from "./draft-store.js";

/** Drafts in a map, for the in-memory store. */
export class MemoryDraftStore implements DraftStore {
  private readonly drafts = new Map<string, AgentDraft>();

  async get(agentId: string): Promise<AgentDraft | undefined> {
    const draft = this.drafts.get(agentId);
    return draft === undefined ? undefined : structuredClone(draft);
  }

  async put(draft: AgentDraft): Promise<void> {
    this.drafts.set(draft.agentId, structuredClone(draft));
  }

  async delete(agentId: string): Promise<boolean> {
    return this.drafts.delete(agentId);
  }
}
