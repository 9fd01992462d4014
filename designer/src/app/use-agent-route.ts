import { useEffect } from "react";
import { getRunPanelStore } from "../run-views/panel/run-panel-store.js";
import { getAgentRouteHash, parseAgentRoute } from "../run-views/run-route.js";
import { openChatSession } from "../run-views/chat/chat-actions.js";
import type { Editor } from "../editor/editor-context.js";

/** The agent id in `#/agents/<id>` (or `…/runs/<runId>`, `…/sessions/<sessionId>`), if any. */
export function getRouteAgentId(hash: string): string | null {
  return parseAgentRoute(hash)?.agentId ?? null;
}

/** The chat the run panel shows (its Chat tab open on a session), if any: it names the page's route. */
function getShownChatId(editor: Editor): string | null {
  const panel = getRunPanelStore(editor).getState();
  return panel.open && panel.tab === "chat" ? editor.chats.getState().sessionId : null;
}

/**
 * Keeps the open agent and the open run or chat in the URL (`#/agents/<id>`, `#/agents/<id>/runs/<runId>`,
 * `#/agents/<id>/sessions/<sessionId>`), so that a reload or a shared link opens them, and opens what the
 * URL names on start and on back/forward (back from a run goes back to editing its agent, back from a chat
 * to the list of chats). The open agent's runs are watched live.
 */
export function useAgentRoute(editor: Editor): void {
  useEffect(() => {
    const openFromHash = async () => {
      const route = parseAgentRoute(window.location.hash);
      // no agent named: an agent never saved may have left its draft in this browser
      if (!route) return editor.agents.unsaved.offer();
      if (route.agentId !== editor.document.getState().agentId) {
        if (!(await editor.agents.openAgent(route.agentId))) return;
      }
      const runs = editor.runs.getState();
      const chats = editor.chats.getState();
      if (route.sessionId !== undefined) {
        getRunPanelStore(editor).getState().set({ open: true, tab: "chat" });
        if (chats.sessionId !== route.sessionId) await openChatSession(editor, route.sessionId);
        return;
      }
      if (route.runId === null) {
        if (getShownChatId(editor) !== null) chats.leaveSession();
        if (runs.mode !== "edit") runs.closeRun();
      } else if (runs.runId !== route.runId || runs.mode === "edit") {
        getRunPanelStore(editor).getState().set({ open: true, tab: "run" });
        await runs.openRun(route.runId);
      }
    };
    const syncHash = () => {
      const runs = editor.runs.getState();
      const sessionId = getShownChatId(editor);
      const runId = runs.mode !== "edit" ? runs.runId : null;
      const agentId = sessionId
        ? (editor.chats.getState().record?.agentId ?? editor.document.getState().agentId)
        : runId
          ? (runs.run?.agentId ?? editor.document.getState().agentId)
          : editor.document.getState().agentId;
      const hash = getAgentRouteHash({ agentId, runId, sessionId });
      if (window.location.hash !== hash) window.history.pushState(null, "", hash || window.location.pathname);
    };
    void editor.agents.connect().then(openFromHash);
    const unsubscribeDocument = editor.document.subscribe((state, previous) => {
      if (state.agentId === previous.agentId) return;
      void editor.runs.getState().watchAgent(state.agentId);
      // another agent opened: a run of the previous one no longer belongs on the canvas
      const runs = editor.runs.getState();
      if (runs.mode !== "edit" && runs.run !== null && runs.run.agentId !== state.agentId) runs.closeRun();
      const chats = editor.chats.getState();
      if (chats.record !== null && chats.record.agentId !== state.agentId) chats.leaveSession();
      syncHash();
    });
    const unsubscribeRuns = editor.runs.subscribe((state, previous) => {
      if (state.runId !== previous.runId || (state.mode === "edit") !== (previous.mode === "edit"))
        syncHash();
    });
    const unsubscribeChats = editor.chats.subscribe((state, previous) => {
      if (state.sessionId !== previous.sessionId) syncHash();
    });
    const unsubscribePanel = getRunPanelStore(editor).subscribe((state, previous) => {
      if (state.tab !== previous.tab || state.open !== previous.open) syncHash();
    });
    const onPopState = () => void openFromHash();
    window.addEventListener("popstate", onPopState);
    return () => {
      unsubscribeDocument();
      unsubscribeRuns();
      unsubscribeChats();
      unsubscribePanel();
      window.removeEventListener("popstate", onPopState);
    };
  }, [editor]);
}
