import { parseJsonText } from "./read-public-chat.js";

/** What the page keeps of a visitor, per public chat: who they are and the conversation they are in. */
export interface VisitorState {
  visitorToken: string;
  /** Null after **New conversation**, until the next message opens one. */
  sessionId: string | null;
}

/** The slice of `Storage` the page uses (localStorage in the page). */
export type KeyValueStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">;

const keyOf = (publicId: string) => `waddle-chat:${publicId}`;

/**
 * The visitor's token and session id in local storage, one entry per public chat, so that a reload (or the
 * embed on another page of the same site) goes on with the same conversation. A storage the browser refuses
 * (private mode, blocked third-party storage) degrades to a conversation that lasts as long as the page.
 */
export function createVisitorStorage(storage: KeyValueStorage | null, publicId: string) {
  let memory: VisitorState | null = null;
  return {
    load(): VisitorState | null {
      let text: string | null;
      try {
        text = storage?.getItem(keyOf(publicId)) ?? null;
      } catch {
        return memory;
      }
      if (text === null) return memory;
      const value = parseJsonText(text) as Partial<Record<keyof VisitorState, unknown>> | undefined;
      if (typeof value !== "object" || value === null || typeof value.visitorToken !== "string") return null;
      const sessionId = typeof value.sessionId === "string" ? value.sessionId : null;
      return { visitorToken: value.visitorToken, sessionId };
    },
    save(state: VisitorState): void {
      memory = state;
      try {
        storage?.setItem(keyOf(publicId), JSON.stringify(state));
      } catch {
        // kept in memory only
      }
    },
    clear(): void {
      memory = null;
      try {
        storage?.removeItem(keyOf(publicId));
      } catch {
        // nothing stored
      }
    },
  };
}

export type VisitorStorage = ReturnType<typeof createVisitorStorage>;

/** The page's local storage, or null where reading it throws (a sandbox, storage blocked). */
export function getLocalStorage(): KeyValueStorage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}
