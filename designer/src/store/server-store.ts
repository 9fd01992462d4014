import type {
  AgentDraft,
  AgentSummary,
  HealthResponse,
  McpServerInfo,
  SpecIssue,
  ToolInfo,
} from "@waddle/protocol";
import { createStore, type StoreApi } from "zustand/vanilla";
import type { UnsavedDraft } from "./unsaved-draft-storage.js";

/** What the designer knows about the server: agents, registered tools, health, a save in flight. */
export interface ServerState {
  agents: AgentSummary[];
  agentsLoaded: boolean;
  tools: ToolInfo[];
  /** The server's MCP servers and their tools; null until loaded (starting them can take a while). */
  mcpServers: McpServerInfo[] | null;
  health: HealthResponse | null;
  /** Why the server cannot be reached, when it cannot. */
  offlineReason: string | null;
  busy: "saving" | "loading" | null;
  /** What only the server can check (allow-lists, secrets, keys, MCP servers, saved agents), debounced. */
  serverIssues: readonly SpecIssue[];
  /** Unsaved edits of the open agent found on the server, offered for restore. */
  pendingDraft: AgentDraft | null;
  /** The edits of an agent never saved, found in this browser after a reload, offered for restore. */
  pendingUnsavedDraft: UnsavedDraft | null;
  set(patch: Partial<Omit<ServerState, "set">>): void;
}

export type ServerStore = StoreApi<ServerState>;

export function createServerStore(): ServerStore {
  return createStore<ServerState>()((set) => ({
    agents: [],
    agentsLoaded: false,
    tools: [],
    mcpServers: null,
    health: null,
    offlineReason: null,
    busy: null,
    serverIssues: [],
    pendingDraft: null,
    pendingUnsavedDraft: null,
    set: (patch) => set(patch),
  }));
}
