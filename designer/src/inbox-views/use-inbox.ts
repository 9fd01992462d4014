import { useStore } from "zustand";
import { useEditor, type Editor } from "../editor/editor-context.js";
import { createInboxStore, type InboxStore, type InboxStoreState } from "../inbox/inbox-store.js";
import { meStore } from "../store/me-store.js";
import { useHashRoute } from "../util/use-hash-route.js";

// one per editor, made on first use: the header's badge and the Inbox page read the same store
const stores = new WeakMap<Editor, InboxStore>();

export function getInboxStore(editor: Editor): InboxStore {
  let store = stores.get(editor);
  if (!store) {
    store = createInboxStore({
      api: editor.api,
      link: editor.connection,
      getMe: () => meStore.getState().me?.name ?? null,
    });
    stores.set(editor, store);
  }
  return store;
}

export function useInbox<T>(selector: (state: InboxStoreState) => T): T {
  return useStore(getInboxStore(useEditor()), selector);
}

export const INBOX_HASH = "#/inbox";

/** True while the page shows the Inbox (`#/inbox`), following back/forward and links. */
export function useInboxRoute(): boolean {
  return useHashRoute(INBOX_HASH);
}

/**
 * Goes to a run on the canvas (`#/agents/<id>/runs/<runId>`) as a new history entry, told as a popstate so
 * that the agent route opens the agent and the run as a link or back/forward would.
 */
export function openRunRoute(hash: string): void {
  window.history.pushState(null, "", hash);
  window.dispatchEvent(new PopStateEvent("popstate"));
}
