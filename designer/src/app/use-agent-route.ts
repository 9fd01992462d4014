import { useEffect } from "react";
import { getRunPanelStore } from "../run-views/panel/run-panel-store.js";
import { getAgentRouteHash, parseAgentRoute } from "../run-views/run-route.js";
import type { Editor } from "../editor/editor-context.js";

/** The agent id in `#/agents/<id>` (or `#/agents/<id>/runs/<runId>`), if any. */
export function getRouteAgentId(hash: string): string | null {
  return parseAgentRoute(hash)?.agentId ?? null;
}

/**
 * Keeps the open agent and the open run in the URL (`#/agents/<id>`, `#/agents/<id>/runs/<runId>`), so
 * that a reload or a shared link opens them, and opens what the URL names on start and on back/forward
 * (back from a run goes back to editing its agent). The open agent's runs are watched live.
 */
export function useAgentRoute(editor: Editor): void {
  useEffect(() => {
    const openFromHash = async () => {
      const route = parseAgentRoute(window.location.hash);
      if (!route) return;
      if (route.agentId !== editor.document.getState().agentId) {
        if (!(await editor.agents.openAgent(route.agentId))) return;
      }
      const runs = editor.runs.getState();
      if (route.runId === null) {
        if (runs.mode !== "edit") runs.closeRun();
      } else if (runs.runId !== route.runId || runs.mode === "edit") {
        getRunPanelStore(editor).getState().set({ open: true, tab: "run" });
        await runs.openRun(route.runId);
      }
    };
    const syncHash = () => {
      const runs = editor.runs.getState();
      const runId = runs.mode !== "edit" ? runs.runId : null;
      const agentId = runId
        ? (runs.run?.agentId ?? editor.document.getState().agentId)
        : editor.document.getState().agentId;
      const hash = getAgentRouteHash({ agentId, runId });
      if (window.location.hash !== hash) window.history.pushState(null, "", hash || window.location.pathname);
    };
    void editor.agents.connect().then(openFromHash);
    const unsubscribeDocument = editor.document.subscribe((state, previous) => {
      if (state.agentId === previous.agentId) return;
      void editor.runs.getState().watchAgent(state.agentId);
      // another agent opened: a run of the previous one no longer belongs on the canvas
      const runs = editor.runs.getState();
      if (runs.mode !== "edit" && runs.run !== null && runs.run.agentId !== state.agentId) runs.closeRun();
      syncHash();
    });
    const unsubscribeRuns = editor.runs.subscribe((state, previous) => {
      if (state.runId !== previous.runId || (state.mode === "edit") !== (previous.mode === "edit"))
        syncHash();
    });
    const onPopState = () => void openFromHash();
    window.addEventListener("popstate", onPopState);
    return () => {
      unsubscribeDocument();
      unsubscribeRuns();
      window.removeEventListener("popstate", onPopState);
    };
  }, [editor]);
}
