import { parseJson, ResumeConflictDetails, type InboxItem, type InboxItemRemoved } from "@waddle/protocol";
import { getErrorMessage, isApiError } from "../api/api-error.js";

/** Who started the run, in words: a key's name, a trigger, or a public chat's visitor. */
export function getStartedByLabel(startedBy: string): string {
  if (startedBy.startsWith("trigger:")) return `trigger ${startedBy.slice("trigger:".length)}`;
  if (startedBy.startsWith("public:")) return "a public chat visitor";
  // a server without keys: whoever uses the designer on it
  if (startedBy === "local") return "the local user";
  return startedBy;
}

const REASONS: Readonly<Record<string, string>> = {
  approval_required: "needs approval",
  await_input: "waits for input",
  external_event: "waits for an outside event",
  constraints_conflict: "hit conflicting constraints",
  stuck: "looks stuck",
};

/** "send_email needs approval", "merge research waits for a decision": the item's headline. */
export function getInboxItemTitle(item: Pick<InboxItem, "kind" | "tool" | "reason">): string {
  if (item.kind === "merge") return `Merge “${item.reason}” waits for a decision`;
  if (item.reason === "guard")
    return `A guard holds ${item.tool ? `${item.tool}'s result` : "the run"} for a decision`;
  const what = REASONS[item.reason] ?? item.reason.replaceAll("_", " ");
  return `${item.tool ?? "The run"} ${what}`;
}

/** A decision that came second (a person, a time limit or another page decided first). */
export const ALREADY_DECIDED = "Someone already decided this.";
export const NO_LONGER_WAITING = "This item is no longer waiting: someone decided it, or its run ended.";

/** What to say when a decision, assign or snooze was refused: a decision already made is said plainly. */
export function getInboxErrorMessage(error: unknown): string {
  if (isApiError(error) && error.status === 409) {
    const conflict = ResumeConflictDetails.safeParse(error.details);
    const reason = conflict.success ? conflict.data.reason : error.code;
    if (reason === "already_answered" || reason === "stale_token" || error.code === "already_answered")
      return ALREADY_DECIDED;
    if (reason === "not_paused") return NO_LONGER_WAITING;
  }
  if (isApiError(error, "not_found")) return NO_LONGER_WAITING;
  return getErrorMessage(error);
}

/** How an item left the inbox, for the note the page shows when someone else decided it. */
export function getRemovedLabel(removed: InboxItemRemoved): string | null {
  const actor =
    removed.actor === "timeout" || removed.decision === "timeout" ? "the time limit" : removed.actor;
  switch (removed.decision) {
    case "approve":
      return `approved by ${actor ?? "someone"}`;
    case "reject":
      return `rejected by ${actor ?? "someone"}`;
    case "edit":
      return `edited and approved by ${actor ?? "someone"}`;
    case "timeout":
      return "decided by its time limit";
    case "gone":
      return "its run ended";
    default:
      return null;
  }
}

/**
 * The args a person judges, from the list's bounded preview: the object when the preview is whole JSON,
 * else the text as it came (cut short), for the card to show while it reads the whole args.
 */
export function getPreviewArgs(
  argsPreview: string | undefined,
): { complete: true; args: unknown } | { complete: false; text: string | null } {
  if (argsPreview === undefined) return { complete: false, text: null };
  const parsed = parseJson(argsPreview);
  return parsed.ok ? { complete: true, args: parsed.value } : { complete: false, text: argsPreview };
}
