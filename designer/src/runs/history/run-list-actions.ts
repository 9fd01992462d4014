import type { RunRecord } from "@waddle/protocol";
import type { RunsApi } from "../../api/runs-api.js";
import { getErrorMessage } from "../../api/api-error.js";
import type { RunStoreState } from "../run-store-state.js";
import type { RunTransport } from "../transport/run-transport.js";
import { getRunListFilter, sortRuns, upsertRun } from "./upsert-run.js";

interface Watch {
  agentId: string;
  unwatch: () => void;
  /** Updates heard while the list loads, applied on top of it. */
  buffered: RunRecord[] | null;
  generation: number;
}

/**
 * The run store's list of the agent's runs: loaded over REST (status and rating filters, limit) and kept live from
 * `run_updated` (upsert by id, newest first), updates heard during a load kept over its answer.
 */
export function createRunListActions(input: {
  api: Pick<RunsApi, "listRuns">;
  transport: RunTransport;
  get: () => RunStoreState;
  set: (patch: Partial<RunStoreState>) => void;
  runsLimit?: number;
  /** Every run update of the watched agent (the store refreshes the open run from it). */
  onRun: (run: RunRecord) => void;
}): Pick<
  RunStoreState,
  | "watchAgent"
  | "setStatusFilter"
  | "setShowTestRuns"
  | "setRatingFilter"
  | "setTriggerFilter"
  | "refreshRuns"
> & {
  dispose(): void;
} {
  const { api, transport, get, set } = input;
  let watched: Watch | null = null;

  const onRunUpdated = (run: RunRecord) => {
    if (watched === null || run.agentId !== watched.agentId) return;
    watched.buffered?.push(run);
    set({ runs: upsertRun(get().runs, run, getRunListFilter(get())) });
    input.onRun(run);
  };

  const loadRuns = async () => {
    const current = watched;
    if (current === null) return;
    const generation = ++current.generation;
    current.buffered = [];
    const { statusFilter, showTestRuns, ratingFilter, triggerFilter } = get();
    try {
      const list = await api.listRuns({
        agentId: current.agentId,
        ...(statusFilter ? { status: statusFilter } : {}),
        limit: input.runsLimit ?? 100,
        ...(showTestRuns ? { purpose: "all" as const } : {}),
        ...(ratingFilter ? { rating: ratingFilter } : {}),
        ...(triggerFilter ? { trigger: triggerFilter } : {}),
      });
      if (watched !== current || current.generation !== generation) return;
      let runs = sortRuns(list);
      for (const run of current.buffered) runs = upsertRun(runs, run, getRunListFilter(get()));
      set({ runs, runsLoaded: true });
    } catch (error) {
      if (watched === current && current.generation === generation)
        set({ runsLoaded: true, error: { kind: "runs", message: getErrorMessage(error) } });
    } finally {
      if (current.generation === generation) current.buffered = null;
    }
  };

  return {
    async watchAgent(agentId) {
      if (watched?.agentId === agentId) return;
      watched?.unwatch();
      watched = null;
      // a trigger belongs to one agent: its filter does not carry over to another
      set({ agentId, runs: [], runsLoaded: false, triggerFilter: null });
      if (agentId === null) return;
      watched = { agentId, unwatch: () => undefined, buffered: null, generation: 0 };
      watched.unwatch = transport.watchAgent(agentId, onRunUpdated);
      await loadRuns();
    },
    async setStatusFilter(statusFilter) {
      set({ statusFilter, runs: [], runsLoaded: false });
      await loadRuns();
    },
    async setShowTestRuns(showTestRuns) {
      if (get().showTestRuns === showTestRuns) return;
      // the list already shown stays while the other one loads: a toggle does not blank History
      set({ showTestRuns });
      await loadRuns();
    },
    async setTriggerFilter(triggerFilter) {
      if (get().triggerFilter === triggerFilter) return;
      set({ triggerFilter, runs: [], runsLoaded: false });
      await loadRuns();
    },
    async setRatingFilter(ratingFilter) {
      if (get().ratingFilter === ratingFilter) return;
      set({ ratingFilter, runs: [], runsLoaded: false });
      await loadRuns();
    },
    refreshRuns: loadRuns,
    dispose() {
      watched?.unwatch();
      watched = null;
    },
  };
}
