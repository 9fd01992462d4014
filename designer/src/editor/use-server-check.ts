import { useEffect } from "react";
import type { Editor } from "./editor-context.js";

/** How long the spec must stay unchanged before the server is asked again. */
const SERVER_CHECK_DELAY_MS = 800;

/**
 * Asks the server what only it can tell about the open spec (hosts not allowed, missing secrets and keys,
 * MCP servers not configured, agent tools naming no saved agent), once edits pause. A failed check keeps
 * the last answer: the page's own validation does not depend on it.
 */
export function useServerCheck(editor: Editor): void {
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let asked = 0;
    const check = () => {
      const spec = editor.document.getState().spec;
      const ticket = (asked += 1);
      editor.api.serverCheck(spec).then(
        ({ issues }) => {
          if (ticket === asked) editor.server.getState().set({ serverIssues: issues });
        },
        () => undefined,
      );
    };
    const schedule = () => {
      clearTimeout(timer);
      timer = setTimeout(check, SERVER_CHECK_DELAY_MS);
    };
    schedule();
    const unsubscribe = editor.document.subscribe((state, previous) => {
      if (state.spec !== previous.spec) schedule();
    });
    return () => {
      clearTimeout(timer);
      unsubscribe();
    };
  }, [editor]);
}
