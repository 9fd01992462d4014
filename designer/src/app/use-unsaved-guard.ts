import { useEffect } from "react";
import { getIsDirty } from "../store/document-store.js";
import type { Editor } from "../editor/editor-context.js";

/** Makes the browser ask before leaving the page with unsaved work. */
export function useUnsavedGuard(editor: Editor): void {
  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      const state = editor.document.getState();
      const hasWork = state.agentId !== null || state.past.length > 0;
      if (hasWork && getIsDirty(state)) event.preventDefault();
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => window.removeEventListener("beforeunload", onBeforeUnload);
  }, [editor]);
}
