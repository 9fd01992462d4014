import { useEffect } from "react";
import { getIsDirty } from "../store/document-store.js";
import type { Editor } from "./editor-context.js";

/** How long edits must pause before the draft is written. */
const DRAFT_DELAY_MS = 600;

/**
 * Keeps the open agent's unsaved edits on the server as its draft (`PUT /api/agents/:id/draft`) once
 * edits pause, so that a reload, a crash or another browser brings them back. Nothing is written while a
 * found draft waits for Restore or Discard, nor for an agent never saved (it has no id on the server yet).
 */
export function useDraftAutosave(editor: Editor): void {
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const write = () => {
      const state = editor.document.getState();
      if (state.agentId === null || !getIsDirty(state)) return;
      if (editor.server.getState().pendingDraft !== null) return;
      void editor.api
        .putDraft(state.agentId, { baseVersion: state.baseVersion, spec: state.spec })
        .catch(() => undefined);
    };
    const unsubscribe = editor.document.subscribe((state, previous) => {
      if (state.spec === previous.spec || state.agentId !== previous.agentId) return;
      clearTimeout(timer);
      timer = setTimeout(write, DRAFT_DELAY_MS);
    });
    return () => {
      clearTimeout(timer);
      unsubscribe();
    };
  }, [editor]);
}
