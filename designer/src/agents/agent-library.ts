import {
  AgentSpec as AgentSpecSchema,
  validateAgentSpec,
  type AgentSpec,
  type ConflictDetails,
  type SpecIssue,
} from "@waddle/protocol";
import type { ApiClient } from "../api/api-client.js";
import { getErrorMessage, isApiError } from "../api/api-error.js";
import { createUniqueName } from "../graph/create-unique-name.js";
import { getIsDirty, type DocumentStore } from "../store/document-store.js";
import type { ServerStore } from "../store/server-store.js";
import type { UiStore } from "../store/ui-store.js";
import { createAgentFromTemplate } from "../templates/agent-templates.js";
import { createUnsavedDraftStorage, type UnsavedDraftStorage } from "../store/unsaved-draft-storage.js";
import { UnsavedDrafts } from "./unsaved-drafts.js";

export interface AgentLibraryOptions {
  api: ApiClient;
  document: DocumentStore;
  server: ServerStore;
  ui: UiStore;
  /** Where the draft of an agent never saved is kept (this browser's localStorage by default). */
  unsavedDrafts?: UnsavedDraftStorage;
}

/**
 * The agent library: everything that moves an agent between the server and the document store: list, open, create, save
 * (with the version it edits, and the conflict dialog on 409), duplicate, rename, delete, restore.
 * The rules: `designer/docs/saving-and-import.md`.
 */
export class AgentLibrary {
  /** The draft of an agent never saved: kept in the browser, offered back after a reload. */
  readonly unsaved: UnsavedDrafts;

  constructor(private readonly options: AgentLibraryOptions) {
    const { document, server, ui } = options;
    const storage = options.unsavedDrafts ?? createUnsavedDraftStorage();
    this.unsaved = new UnsavedDrafts({ document, server, ui, storage });
  }

  private get document() {
    return this.options.document.getState();
  }

  private notifyError(error: unknown): void {
    this.options.ui.getState().notify("error", getErrorMessage(error));
  }

  /** Loads health, registered tools and the agent list; reports an unreachable server once. */
  async connect(): Promise<void> {
    const { api, server } = this.options;
    try {
      const [health, tools] = await Promise.all([api.health(), api.listTools()]);
      server.getState().set({ health, tools, offlineReason: null });
      // Not awaited: the server starts its MCP servers to list them, which must not hold up the agents.
      void this.refreshMcpServers();
      await this.refreshAgents();
    } catch (error) {
      server.getState().set({ offlineReason: getErrorMessage(error), agentsLoaded: true });
    }
  }

  /** Loads the MCP servers and their tools; a server that cannot list them (an older one) shows none. */
  async refreshMcpServers(): Promise<void> {
    const mcpServers = await this.options.api.listMcpServers().catch(() => []);
    this.options.server.getState().set({ mcpServers });
  }

  async refreshAgents(): Promise<void> {
    const agents = await this.options.api.listAgents();
    this.options.server.getState().set({ agents, agentsLoaded: true });
  }

  /** Asks before throwing away unsaved changes; true when it is fine to go on. */
  async confirmDiscard(action: string): Promise<boolean> {
    const state = this.document;
    const hasWork = state.agentId !== null || state.past.length > 0;
    if (!getIsDirty(state) || !hasWork) return true;
    const answer = await this.options.ui.getState().openDialog("confirm", {
      title: "Discard unsaved changes?",
      message: `“${state.spec.name}” has changes that are not saved. ${action} anyway and lose them?`,
      confirmLabel: "Discard changes",
      danger: true,
    });
    if (answer === true && state.agentId === null) this.unsaved.drop();
    return answer === true;
  }

  /** Restore draft on the banner of an agent never saved (asking first if the page has edits of its own). */
  async restoreUnsavedDraft(): Promise<void> {
    if (!(await this.confirmDiscard("Restore the draft"))) return;
    this.unsaved.restore();
  }

  async openAgent(id: string, options: { force?: boolean } = {}): Promise<boolean> {
    if (!options.force && !(await this.confirmDiscard("Open another agent"))) return false;
    const { api, server } = this.options;
    server.getState().set({ busy: "loading" });
    try {
      const record = await api.getAgent(id);
      server.getState().set({ pendingDraft: null });
      this.unsaved.hide();
      this.document.load({ spec: record.spec, agentId: record.id, version: record.version });
      void this.offerDraft(record.id, record.spec);
      return true;
    } catch (error) {
      this.notifyError(error);
      return false;
    } finally {
      server.getState().set({ busy: null });
    }
  }

  /** Offers the agent's draft (unsaved edits kept on the server) when it differs from what was loaded. */
  private async offerDraft(agentId: string, saved: AgentSpec): Promise<void> {
    const draft = await this.options.api.getDraft(agentId).catch(() => null);
    if (!draft || this.document.agentId !== agentId) return;
    if (JSON.stringify(draft.spec) === JSON.stringify(saved)) {
      await this.options.api.deleteDraft(agentId).catch(() => undefined);
      return;
    }
    this.options.server.getState().set({ pendingDraft: draft });
  }

  /** Puts the offered draft into the document as one undoable edit (saving makes it a version). */
  restoreDraft(): void {
    const { server, ui } = this.options;
    const draft = server.getState().pendingDraft;
    if (!draft || draft.agentId !== this.document.agentId) return;
    const parsed = AgentSpecSchema.safeParse(draft.spec);
    server.getState().set({ pendingDraft: null });
    if (!parsed.success) {
      ui.getState().notify("error", "The draft cannot be read as an agent any more: it was discarded.");
      void this.options.api.deleteDraft(draft.agentId).catch(() => undefined);
      return;
    }
    this.document.dispatch({ type: "replaceSpec", spec: parsed.data, reason: "restore draft" });
    const stale = draft.baseVersion !== null && draft.baseVersion !== this.document.baseVersion;
    ui.getState().notify(
      "info",
      stale
        ? `Restored the draft made on version ${draft.baseVersion}; version ${this.document.baseVersion} is newer. Save to keep it.`
        : "Restored the unsaved changes. Save to keep them as a version.",
    );
  }

  /** Drops the offered draft on the server too. */
  async discardDraft(): Promise<void> {
    const draft = this.options.server.getState().pendingDraft;
    this.options.server.getState().set({ pendingDraft: null });
    if (draft) await this.options.api.deleteDraft(draft.agentId).catch(() => undefined);
  }

  /** Starts a new, unsaved agent (asks for a name and template first). */
  async newAgent(): Promise<void> {
    if (!(await this.confirmDiscard("Start a new agent"))) return;
    const choice = await this.options.ui.getState().openDialog("newAgent", {});
    if (!choice) return;
    let spec = createAgentFromTemplate(choice);
    if (choice.copyOf) {
      try {
        const source = await this.options.api.getAgent(choice.copyOf);
        spec = { ...source.spec, id: choice.id, name: choice.name };
      } catch (error) {
        this.notifyError(error);
        return;
      }
    }
    this.document.load({ spec, agentId: null, version: null });
    this.options.ui.getState().set({ leftTab: "palette", rightTab: "inspector" });
  }

  /** Opens a spec that is not saved yet (an import); saving creates it. */
  openUnsaved(spec: AgentSpec): void {
    this.document.load({ spec, agentId: null, version: null });
  }

  /** Saves the document: POST for a new agent, PUT with `baseVersion` otherwise. */
  async save(): Promise<boolean> {
    const { api, server, ui } = this.options;
    const state = this.document;
    const errors = validateAgentSpec(state.spec).issues.filter(
      (issue: SpecIssue) => issue.severity === "error",
    );
    if (errors.length > 0) {
      ui.getState().set({ rightTab: "issues" });
      const answer = await ui.getState().openDialog("confirm", {
        title: "Save with errors?",
        message:
          `“${state.spec.name}” has ${errors.length === 1 ? "an error" : `${errors.length} errors`} (listed in the Issues panel). ` +
          "It can be saved so that nothing is lost, as a version marked invalid: runs refuse it until a version without errors is saved.",
        confirmLabel: "Save as invalid",
      });
      if (answer !== true) return false;
    }
    const allowInvalid = errors.length > 0;
    if (server.getState().busy === "saving") return false;
    server.getState().set({ busy: "saving" });
    const spec = state.spec;
    try {
      if (state.agentId === null || state.baseVersion === null) {
        const created = await api.createAgent(spec, { allowInvalid });
        this.document.markSaved({ agentId: created.id, version: created.version });
        this.unsaved.drop();
      } else {
        const updated = await api.updateAgent(state.agentId, {
          spec,
          baseVersion: state.baseVersion,
          ...(allowInvalid ? { allowInvalid } : {}),
        });
        this.document.markSaved({ agentId: updated.id, version: updated.version });
      }
      server.getState().set({ pendingDraft: null });
      void api.deleteDraft(spec.id).catch(() => undefined);
      ui.getState().notify(
        allowInvalid ? "info" : "success",
        allowInvalid
          ? `Saved “${spec.name}” as version ${this.document.baseVersion}, marked invalid: runs refuse it until the errors are fixed.`
          : `Saved “${spec.name}” (version ${this.document.baseVersion}).`,
      );
      await this.refreshAgents().catch(() => undefined);
      return true;
    } catch (error) {
      if (isApiError(error, "conflict") && state.agentId !== null) return this.resolveConflict(error.details);
      this.notifyError(error);
      return false;
    } finally {
      server.getState().set({ busy: null });
    }
  }

  /** A newer version exists: reload it (dropping local changes) or save ours on top of it. */
  private async resolveConflict(details: unknown): Promise<boolean> {
    const conflict = details as ConflictDetails | undefined;
    const agentId = this.document.agentId;
    if (!agentId) return false;
    const currentVersion = typeof conflict?.currentVersion === "number" ? conflict.currentVersion : null;
    const choice = await this.options.ui.getState().openDialog("conflict", {
      currentVersion: currentVersion ?? (this.document.baseVersion ?? 0) + 1,
      baseVersion: this.document.baseVersion ?? 1,
    });
    if (choice === "reload") return this.openAgent(agentId, { force: true });
    if (choice !== "overwrite") return false;
    try {
      const latest = currentVersion ?? (await this.options.api.getAgent(agentId)).version;
      const updated = await this.options.api.updateAgent(agentId, {
        spec: this.document.spec,
        baseVersion: latest,
      });
      this.document.markSaved({ agentId, version: updated.version });
      this.options.ui.getState().notify("success", `Saved as version ${updated.version}.`);
      await this.refreshAgents().catch(() => undefined);
      return true;
    } catch (error) {
      if (isApiError(error, "conflict")) return this.resolveConflict(error.details);
      this.notifyError(error);
      return false;
    }
  }

  async deleteAgent(id: string): Promise<void> {
    const summary = this.options.server.getState().agents.find((agent) => agent.id === id);
    const confirmed = await this.options.ui.getState().openDialog("confirm", {
      title: "Delete agent?",
      message: `“${summary?.name ?? id}” and all its versions will be deleted. This cannot be undone.`,
      confirmLabel: "Delete agent",
      danger: true,
    });
    if (!confirmed) return;
    try {
      await this.options.api.deleteAgent(id);
      if (this.document.agentId === id) {
        this.document.load({
          spec: createAgentFromTemplate({ template: "blank", id: "untitled", name: "Untitled agent" }),
          agentId: null,
          version: null,
        });
      }
      this.options.ui.getState().notify("info", `Deleted “${summary?.name ?? id}”.`);
      await this.refreshAgents();
    } catch (error) {
      this.notifyError(error);
    }
  }

  /** Saves a copy of an agent under a new id and opens it. */
  async duplicateAgent(id: string): Promise<void> {
    try {
      const record = await this.options.api.getAgent(id);
      const taken = this.options.server.getState().agents.map((agent) => agent.id);
      const copyId = createUniqueName({ base: `${record.id.slice(0, 58)}-copy`, taken, separator: "-" });
      const spec = { ...record.spec, id: copyId, name: `Copy of ${record.spec.name}`.slice(0, 200) };
      await this.options.api.createAgent(spec);
      await this.refreshAgents();
      await this.openAgent(copyId);
    } catch (error) {
      this.notifyError(error);
    }
  }

  /** Renames a saved agent (a new version); the open document follows as an undoable edit if it is that agent. */
  async renameAgent(id: string): Promise<void> {
    const summary = this.options.server.getState().agents.find((agent) => agent.id === id);
    const name = await this.options.ui
      .getState()
      .openDialog("rename", { title: "Rename agent", label: "Name", initial: summary?.name ?? id });
    if (!name || name === summary?.name) return;
    const state = this.document;
    if (state.agentId === id) {
      // the open agent: rename in the document (undoable) and save at once unless other edits are pending
      const wasClean = !getIsDirty(state);
      state.dispatch({ type: "updateAgent", patch: { name } });
      if (wasClean) await this.save();
      return;
    }
    try {
      const record = await this.options.api.getAgent(id);
      await this.options.api.updateAgent(id, { spec: { ...record.spec, name }, baseVersion: record.version });
      await this.refreshAgents();
    } catch (error) {
      this.notifyError(error);
    }
  }

  /** Puts an older version's spec into the document as an undoable edit; saving makes it the newest version. */
  async restoreVersion(version: number): Promise<void> {
    const agentId = this.document.agentId;
    if (!agentId) return;
    try {
      const record = await this.options.api.getVersion(agentId, version);
      this.document.dispatch({
        type: "replaceSpec",
        spec: record.spec,
        reason: `restore version ${version}`,
      });
      this.options.ui
        .getState()
        .notify("info", `Restored version ${version}. Save to make it the newest version.`);
    } catch (error) {
      this.notifyError(error);
    }
  }
}
