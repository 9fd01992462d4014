import type { AgentSummary, HealthResponse, ToolInfo } from "@waddle/protocol";
import { createStore, type StoreApi } from "zustand/vanilla";

/** What the designer knows about the server: agents, registered tools, health, a save in flight. */
export interface SessionState {
  agents: AgentSummary[];
  agentsLoaded: boolean;
  tools: ToolInfo[];
  health: HealthResponse | null;
  /** Why the server cannot be reached, when it cannot. */
  offlineReason: string | null;
  busy: "saving" | "loading" | null;
  set(patch: Partial<Omit<SessionState, "set">>): void;
}

export type SessionStore = StoreApi<SessionState>;

export function createSessionStore(): SessionStore {
  return createStore<SessionState>()((set) => ({
    agents: [],
    agentsLoaded: false,
    tools: [],
    health: null,
    offlineReason: null,
    busy: null,
    set: (patch) => set(patch),
  }));
}
