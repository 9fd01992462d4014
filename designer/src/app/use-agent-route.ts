import { useEffect } from "react";
import type { Editor } from "./editor-context.js";

const ROUTE = /^#\/agents\/([a-z0-9][a-z0-9_-]{0,63})$/;

/** The agent id in `#/agents/<id>`, if any. */
export function getRouteAgentId(hash: string): string | null {
  return ROUTE.exec(hash)?.[1] ?? null;
}

/**
 * Keeps the open agent in the URL (`#/agents/<id>`), so that a reload or a shared link opens it, and
 * opens the agent the URL names on start and on back/forward.
 */
export function useAgentRoute(editor: Editor): void {
  useEffect(() => {
    const openFromHash = () => {
      const id = getRouteAgentId(window.location.hash);
      if (id && id !== editor.document.getState().agentId) void editor.agents.openAgent(id);
    };
    void editor.agents.connect().then(openFromHash);
    const unsubscribe = editor.document.subscribe((state, previous) => {
      if (state.agentId === previous.agentId) return;
      const hash = state.agentId ? `#/agents/${state.agentId}` : "";
      if (window.location.hash !== hash) window.history.pushState(null, "", hash || window.location.pathname);
    });
    window.addEventListener("popstate", openFromHash);
    return () => {
      unsubscribe();
      window.removeEventListener("popstate", openFromHash);
    };
  }, [editor]);
}
