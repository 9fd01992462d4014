import { getErrorMessage } from "../../api/api-error.js";
import { compareRuns } from "./compare-runs.js";
import { getLoadedRunView, loadRun, type RunLoadApi, type SpecCache } from "../history/load-run.js";
import type { CompareSide, RunMode, RunStoreState } from "../run-store-state.js";

/** The run store's comparison of two runs: both loaded and folded to their ends, then `compareRuns`. */
export function createCompareActions(input: {
  api: RunLoadApi;
  getSpec: SpecCache;
  get: () => RunStoreState;
  set: (patch: Partial<RunStoreState>) => void;
  /** Where closing the comparison goes back to (the open run's mode, or editing). */
  getReturnMode: () => RunMode;
  /** Pauses a replay playing underneath. */
  onOpen: () => void;
}): Pick<RunStoreState, "openCompare" | "closeCompare"> {
  const { api, getSpec, get, set } = input;
  let generation = 0;
  return {
    async openCompare(leftRunId, rightRunId) {
      const current = ++generation;
      input.onOpen();
      set({
        mode: "compare",
        compare: { leftRunId, rightRunId, left: null, right: null, comparison: null, loading: true },
      });
      try {
        const [left, right] = await Promise.all(
          [leftRunId, rightRunId].map(async (runId): Promise<CompareSide> => {
            const loaded = await loadRun({ api, getSpec, runId });
            return { runId, run: loaded.run, spec: loaded.spec, view: getLoadedRunView(loaded) };
          }),
        );
        if (current !== generation || !left || !right) return;
        const comparison = compareRuns(left.view, right.view);
        set({ compare: { leftRunId, rightRunId, left, right, comparison, loading: false } });
      } catch (error) {
        if (current !== generation) return;
        const compare = get().compare;
        set({
          compare: compare === null ? null : { ...compare, loading: false },
          error: { kind: "compare", message: getErrorMessage(error) },
        });
      }
    },
    closeCompare() {
      generation += 1;
      if (get().mode === "compare") set({ mode: input.getReturnMode() });
      set({ compare: null });
    },
  };
}
