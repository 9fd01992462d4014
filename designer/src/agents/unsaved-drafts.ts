import { AgentSpec as AgentSpecSchema } from "@waddle/protocol";
import type { DocumentStore } from "../store/document-store.js";
import type { ServerStore } from "../store/server-store.js";
import type { UiStore } from "../store/ui-store.js";
import type { UnsavedDraftStorage } from "../store/unsaved-draft-storage.js";

/**
 * The draft of an agent never saved. The server keeps drafts by agent id, which a new agent does not have
 * yet, so this browser keeps it (one: the latest unsaved agent edited) and offers it back after a reload,
 * until it is saved, restored and saved, or discarded.
 */
export class UnsavedDrafts {
  constructor(
    private readonly options: {
      document: DocumentStore;
      server: ServerStore;
      ui: UiStore;
      storage: UnsavedDraftStorage;
      now?: () => number;
    },
  ) {}

  /** Keeps the open document if it is an unsaved agent with edits; not while a found draft waits for a choice. */
  keep(): void {
    const { document, server, storage, now = Date.now } = this.options;
    const state = document.getState();
    if (state.agentId !== null || state.past.length === 0) return;
    if (server.getState().pendingUnsavedDraft !== null) return;
    storage.write({ spec: state.spec, updatedAt: new Date(now()).toISOString() });
  }

  /** Offers the kept draft, when the page opened no agent and nothing was edited yet. */
  offer(): void {
    const { document, server, storage } = this.options;
    const state = document.getState();
    if (state.agentId !== null || state.past.length > 0) return;
    const draft = storage.read();
    if (draft) server.getState().set({ pendingUnsavedDraft: draft });
  }

  /** Opens the offered draft as the unsaved agent it was; it stays kept until saved or discarded. */
  restore(): void {
    const { document, server, ui, storage } = this.options;
    const draft = server.getState().pendingUnsavedDraft;
    if (!draft) return;
    server.getState().set({ pendingUnsavedDraft: null });
    const parsed = AgentSpecSchema.safeParse(draft.spec);
    if (!parsed.success) {
      storage.clear();
      ui.getState().notify("error", "The draft cannot be read as an agent any more: it was discarded.");
      return;
    }
    document.getState().load({ spec: parsed.data, agentId: null, version: null });
    ui.getState().set({ leftTab: "palette", rightTab: "inspector" });
    ui.getState().notify("info", `Restored “${parsed.data.name}”, which was never saved. Save to keep it.`);
  }

  /** Stops offering the draft (a saved agent opened); it is still kept for the next reload. */
  hide(): void {
    this.options.server.getState().set({ pendingUnsavedDraft: null });
  }

  /** Discard: the offered draft is gone for good. */
  discard(): void {
    this.options.server.getState().set({ pendingUnsavedDraft: null });
    this.options.storage.clear();
  }

  /**
   * The open unsaved agent was saved, or its edits thrown away: its kept draft goes (not one still offered,
   * which is another agent's).
   */
  drop(): void {
    if (this.options.server.getState().pendingUnsavedDraft === null) this.options.storage.clear();
  }
}
