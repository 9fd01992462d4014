import { parseJson } from "@waddle/protocol";
import { z } from "zod";

/** The localStorage key of the agents whose offline-model notice was dismissed. */
export const OFFLINE_NOTICE_KEY = "waddle.offline-notice-dismissed";
/** Beyond this many agents, the oldest dismissals are forgotten (the notice is one line, not a nag). */
const MAX_REMEMBERED = 200;
/** An agent not saved yet has no id: its dismissal goes with the page, under this key. */
const UNSAVED = "";

const Dismissed = z.array(z.string()).max(1_000);
type Storage = Pick<globalThis.Storage, "getItem" | "setItem">;

function read(storage: Storage | undefined): string[] {
  const text = storage?.getItem(OFFLINE_NOTICE_KEY);
  if (!text) return [];
  const json = parseJson(text);
  const parsed = Dismissed.safeParse(json.ok ? json.value : undefined);
  return parsed.success ? parsed.data : [];
}

/** True once the notice was dismissed for this agent (in this browser). */
export function isOfflineNoticeDismissed(storage: Storage | undefined, agentId: string | null): boolean {
  return read(storage).includes(agentId ?? UNSAVED);
}

/** Remembers that the notice was dismissed for this agent; a full or missing storage is no error. */
export function dismissOfflineNotice(storage: Storage | undefined, agentId: string | null): void {
  if (agentId === null) return;
  const kept = read(storage).filter((id) => id !== agentId);
  try {
    storage?.setItem(OFFLINE_NOTICE_KEY, JSON.stringify([...kept, agentId].slice(-MAX_REMEMBERED)));
  } catch {
    // Storage full or refused (private mode): the notice shows again next time, which is harmless.
  }
}
