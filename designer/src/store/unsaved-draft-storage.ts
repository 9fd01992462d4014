import { parseJson } from "@waddle/protocol";
import { z } from "zod";

/** The edits of an agent never saved, as this browser keeps them (the spec may not validate yet). */
export const UnsavedDraft = z.object({
  spec: z.record(z.string(), z.unknown()),
  updatedAt: z.string(),
});
export type UnsavedDraft = z.infer<typeof UnsavedDraft>;

/** Where an unsaved agent's draft is kept: one at a time, the latest unsaved agent edited. */
export interface UnsavedDraftStorage {
  read(): UnsavedDraft | null;
  write(draft: UnsavedDraft): void;
  clear(): void;
}

/** The localStorage key of the unsaved agent's draft (localStorage is per origin, so per server). */
export const UNSAVED_DRAFT_KEY = "waddle.unsavedDraft";

type KeyValueStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">;

/**
 * Keeps the draft of an agent that has no id on the server yet in `storage` (localStorage by default;
 * none in node). What is read back is checked: anything unreadable is no draft.
 */
export function createUnsavedDraftStorage(
  storage: KeyValueStorage | undefined = globalThis.localStorage,
): UnsavedDraftStorage {
  // storage can be disabled (private mode) or full: the draft then lasts for this page only
  const attempt = <T>(perform: () => T, fallback: T): T => {
    try {
      return perform();
    } catch {
      return fallback;
    }
  };
  return {
    read() {
      const text = attempt(() => storage?.getItem(UNSAVED_DRAFT_KEY) ?? null, null);
      if (text === null) return null;
      const json = parseJson(text);
      if (!json.ok) return null;
      const parsed = UnsavedDraft.safeParse(json.value);
      return parsed.success ? parsed.data : null;
    },
    write(draft) {
      attempt(() => storage?.setItem(UNSAVED_DRAFT_KEY, JSON.stringify(draft)), undefined);
    },
    clear() {
      attempt(() => storage?.removeItem(UNSAVED_DRAFT_KEY), undefined);
    },
  };
}
