import { useStore } from "zustand";
import { createStore, type StoreApi } from "zustand/vanilla";
import { useEditor, type Editor } from "../../editor/editor-context.js";
import type { ChatStoreState } from "../../chats/chat-store.js";

/** Reads `editor.chats` through a selector. */
export function useChats<T>(selector: (state: ChatStoreState) => T): T {
  return useStore(useEditor().chats, selector);
}

/** The Chat tab's own view state, kept across tab switches: the message being typed, the list's search. */
export interface ChatViewState {
  message: string;
  search: string;
  /** The tray's open state as the person left it (null: open while it has something to act on). */
  trayOpen: boolean | null;
  set(patch: Partial<Omit<ChatViewState, "set">>): void;
}

const stores = new WeakMap<Editor, StoreApi<ChatViewState>>();

export function getChatViewStore(editor: Editor): StoreApi<ChatViewState> {
  let store = stores.get(editor);
  if (!store) {
    store = createStore<ChatViewState>()((set) => ({
      message: "",
      search: "",
      trayOpen: null,
      set: (patch) => set(patch),
    }));
    stores.set(editor, store);
  }
  return store;
}

export function useChatView<T>(selector: (state: ChatViewState) => T): T {
  return useStore(getChatViewStore(useEditor()), selector);
}
