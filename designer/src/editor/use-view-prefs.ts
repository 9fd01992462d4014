import { useStore } from "zustand";
import { useEditor, type Editor } from "./editor-context.js";
import { createViewPrefsStore, type ViewPrefsState, type ViewPrefsStore } from "../store/view-prefs-store.js";

// one per editor, made on first use (commands and the shell reach it through the editor)
const stores = new WeakMap<Editor, ViewPrefsStore>();

/** The editor's view preferences: panel widths and collapsed states, following the run. */
export function getViewPrefsStore(editor: Editor): ViewPrefsStore {
  let store = stores.get(editor);
  if (!store) {
    store = createViewPrefsStore();
    stores.set(editor, store);
  }
  return store;
}

export function useViewPrefs<T>(selector: (state: ViewPrefsState) => T): T {
  return useStore(getViewPrefsStore(useEditor()), selector);
}
