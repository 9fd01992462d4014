import { useEffect, useRef } from "react";
import { useEditor } from "../../editor/editor-context.js";
import { useRunStore } from "../use-run-store.js";
import { getComposerQuery } from "./get-composer-query.js";
import { getShownRunQuery } from "./get-shown-run-query.js";
import { getRunPanelStore } from "./run-panel-store.js";

/**
 * Keeps the Run tab's query box from showing another run's query above the shown run
 * (`getComposerQuery`): when a run is shown, live or replayed, a box holding a query some run was given
 * takes the shown run's.
 */
export function useComposerFollowsShownRun(): void {
  const editor = useEditor();
  const shownRunId = useRunStore((state) =>
    state.mode === "live" || state.mode === "replay" ? state.runId : null,
  );
  const shownQuery = useRunStore((state) => getShownRunQuery(state.run, state.view));
  const previousQuery = useRef("");
  useEffect(() => {
    if (shownRunId === null || shownQuery === "") return;
    const panel = getRunPanelStore(editor).getState();
    const agentId = editor.document.getState().agentId;
    const box = panel.queryAgentId === agentId ? panel.query : "";
    const ranQueries = new Set([
      previousQuery.current,
      ...editor.runs.getState().runs.map((run) => run.query),
    ]);
    previousQuery.current = shownQuery;
    const next = getComposerQuery({ box, shownQuery, ranQueries });
    if (next !== box) panel.set({ query: next, queryAgentId: agentId });
  }, [editor, shownRunId, shownQuery]);
}
