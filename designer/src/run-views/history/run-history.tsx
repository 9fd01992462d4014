import { useMemo, useState, type ReactElement } from "react";
import { useEditor } from "../../editor/editor-context.js";
import { useRunStore } from "../use-run-store.js";
import { getRunPanelStore } from "../panel/run-panel-store.js";
import { RunHistoryList } from "./run-history-list.js";
import { useAgentTriggers } from "./run-history-trigger-filter.js";
import {
  getFilterCounts,
  getRunHistoryRows,
  toggleComparePick,
  type HistoryFilter,
} from "./run-history-rows.js";
import { useNow } from "../panel/use-now.js";

/**
 * The History tab: the open agent's runs, kept live by the run store (`run_updated` from any source: this
 * tab, another, REST, the CLI). A row opens its run (live while it goes, else as a replay); two ticks
 * compare two runs.
 */
export function RunHistory(): ReactElement {
  const editor = useEditor();
  const runs = useRunStore((state) => state.runs);
  const loaded = useRunStore((state) => state.runsLoaded);
  const agentId = useRunStore((state) => state.agentId);
  const openRunId = useRunStore((state) => (state.mode === "edit" ? null : state.runId));
  const error = useRunStore((state) => (state.error?.kind === "runs" ? state.error.message : null));
  const showTestRuns = useRunStore((state) => state.showTestRuns);
  const ratingFilter = useRunStore((state) => state.ratingFilter);
  const triggerFilter = useRunStore((state) => state.triggerFilter);
  const triggers = useAgentTriggers(agentId);
  const [filter, setFilter] = useState<HistoryFilter>("all");
  const [picks, setPicks] = useState<string[]>([]);
  // a running run's duration counts up while it is listed
  const now = useNow(
    runs.some((run) => run.status === "running"),
    1000,
  );
  const rows = useMemo(() => getRunHistoryRows(runs, { filter, now }), [runs, filter, now]);
  const counts = useMemo(() => getFilterCounts(runs), [runs]);
  const livePicks = picks.filter((id) => runs.some((run) => run.id === id));

  if (agentId === null)
    return (
      <section className="run-history" data-testid="run-history" aria-label="Run history">
        <p className="empty-note">Save the agent to run it; its runs are listed here.</p>
      </section>
    );

  return (
    <RunHistoryList
      rows={rows}
      total={runs.length}
      filter={filter}
      counts={counts}
      onFilter={setFilter}
      openRunId={openRunId}
      onOpen={(runId) => {
        getRunPanelStore(editor).getState().set({ open: true, tab: "run" });
        const runs = editor.runs.getState();
        // a comparison stays on top of an opened run: a row clicked asks for that run itself
        if (runs.mode === "compare") runs.closeCompare();
        void runs.openRun(runId);
      }}
      picks={livePicks}
      onTogglePick={(runId) => setPicks((current) => toggleComparePick(current, runId))}
      onCompare={() => {
        const [first, second] = livePicks;
        if (!first || !second) return;
        // A is the older run, so the deltas read as "what changed since"
        const order = runs.map((run) => run.id);
        const [left, right] =
          order.indexOf(first) > order.indexOf(second) ? [first, second] : [second, first];
        getRunPanelStore(editor).getState().set({ tab: "compare" });
        void editor.runs.getState().openCompare(left, right);
      }}
      loading={!loaded}
      error={error}
      showTestRuns={showTestRuns}
      onShowTestRuns={(show) => void editor.runs.getState().setShowTestRuns(show)}
      ratingFilter={ratingFilter}
      onRatingFilter={(rating) => void editor.runs.getState().setRatingFilter(rating)}
      triggers={triggers}
      triggerFilter={triggerFilter}
      onTriggerFilter={(triggerId) => void editor.runs.getState().setTriggerFilter(triggerId)}
    />
  );
}
