import type { AgentVersionSummary, Channel, Release } from "@waddle/protocol";
import { createStore, type StoreApi } from "zustand/vanilla";
import type { AgentsApi } from "../api/agents-api.js";
import { getErrorMessage } from "../api/api-error.js";
import type { ReleasesApi } from "../api/releases-api.js";

/** The open agent's channels, its releases (newest first) and its saved versions, as the server has them. */
export interface ReleasesState {
  agentId: string | null;
  channels: Channel[];
  releases: Release[];
  versions: AgentVersionSummary[];
  loaded: boolean;
  error: string | null;
  /** Reads the agent's channels, releases and versions (again, when it is the same agent). */
  load(agentId: string | null): Promise<void>;
  /** Reads the open agent's again: after a release, a rollback or a save. */
  refresh(): Promise<void>;
}

export type ReleasesStore = StoreApi<ReleasesState>;

export type ReleasesStoreApi = Pick<ReleasesApi, "listChannels" | "listReleases"> &
  Pick<AgentsApi, "listVersions">;

/** A store per editor: what the header's badges, the release dialogs and the run target picker read. */
export function createReleasesStore(api: ReleasesStoreApi): ReleasesStore {
  return createStore<ReleasesState>()((set, get) => {
    let reading = 0;
    const read = async (agentId: string) => {
      const ticket = ++reading;
      try {
        const [channels, releases, versions] = await Promise.all([
          api.listChannels(agentId),
          api.listReleases(agentId),
          api.listVersions(agentId),
        ]);
        // an older read answering late never overwrites a newer one
        if (ticket !== reading || get().agentId !== agentId) return;
        set({ channels, releases, versions, loaded: true, error: null });
      } catch (error) {
        if (ticket === reading && get().agentId === agentId)
          set({ loaded: true, error: getErrorMessage(error) });
      }
    };
    return {
      agentId: null,
      channels: [],
      releases: [],
      versions: [],
      loaded: false,
      error: null,
      async load(agentId) {
        if (agentId !== get().agentId)
          set({ agentId, channels: [], releases: [], versions: [], loaded: false, error: null });
        if (agentId === null) {
          reading += 1;
          return;
        }
        await read(agentId);
      },
      async refresh() {
        const agentId = get().agentId;
        if (agentId !== null) await read(agentId);
      },
    };
  });
}
