import { useEffect } from "react";
import { getIsDirty } from "../store/document-store.js";
import type { Editor } from "./editor-context.js";

/** How long edits must pause before the draft is written. */
const DRAFT_DELAY_MS = 600;

/**
 * Keeps the open agent's unsaved edits on the server as its draft (`PUT /api/agents/:id/draft`) once
 * edits pause, so that a reload, a crash or another browser brings them back. An agent never saved has no
 * id on the server yet: its draft is kept in this browser (`editor.agents.unsaved`). Nothing is written
 * while a found draft waits for Restore or Discard.
 */
export function useDraftAutosave(editor: Editor): void {
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const write = () => {
      const state = editor.document.getState();
      if (state.agentId === null) return editor.agents.unsaved.keep();
      if (!getIsDirty(state)) return;
      if (editor.server.getState().pendingDraft !== null) return;
      void editor.api
        .putDraft(state.agentId, { baseVersion: state.baseVersion, spec: state.spec })
        .catch(() => undefined);
    };
    let pending = false;
    const flush = () => {
      clearTimeout(timer);
      if (pending) write();
      pending = false;
    };
    const unsubscribe = editor.document.subscribe((state, previous) => {
      if (state.spec === previous.spec || state.agentId !== previous.agentId) return;
      clearTimeout(timer);
      pending = true;
      timer = setTimeout(flush, DRAFT_DELAY_MS);
    });
    // a reload within the delay still keeps the last edit (the browser's copy is written at once)
    window.addEventListener("pagehide", flush);
    return () => {
      clearTimeout(timer);
      window.removeEventListener("pagehide", flush);
      unsubscribe();
    };
  }, [editor]);
}
