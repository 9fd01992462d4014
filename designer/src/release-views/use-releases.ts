import { useEffect } from "react";
import { useStore } from "zustand";
import { useDocument, useEditor, type Editor } from "../editor/editor-context.js";
import { createReleasesStore, type ReleasesState, type ReleasesStore } from "../releases/releases-store.js";

// one per editor, made on first use (as the Tests tab's store): the header, dialogs and Run read it
const stores = new WeakMap<Editor, ReleasesStore>();

export function getReleasesStore(editor: Editor): ReleasesStore {
  let store = stores.get(editor);
  if (!store) {
    store = createReleasesStore(editor.api);
    stores.set(editor, store);
  }
  return store;
}

export function useReleases<T>(selector: (state: ReleasesState) => T): T {
  return useStore(getReleasesStore(useEditor()), selector);
}

/**
 * Keeps the releases store on the open agent: read when another agent opens and after each save (the
 * versions the run target picker offers). Mounted once, by the header.
 */
export function useReleasesFollowAgent(): void {
  const editor = useEditor();
  const agentId = useDocument((state) => state.agentId);
  const version = useDocument((state) => state.baseVersion);
  useEffect(() => {
    void getReleasesStore(editor).getState().load(agentId);
  }, [editor, agentId, version]);
}
