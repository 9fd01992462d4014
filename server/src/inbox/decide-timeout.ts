import { TIMEOUT_ACTOR, type ApprovalTimeoutAction, type InboxItem } from "@waddle/protocol";
import { ApiError } from "../shared/api-error.js";

/** What deciding a pause at its due time needs of the run service. */
export interface TimeoutRuns {
  resumeRun(
    runId: string,
    request: { resumeToken: string; decision: "approve" | "reject"; userInput?: string; actor?: string },
  ): Promise<{ runId: string }>;
  failPausedRun(
    runId: string,
    request: { resumeToken: string; error: { code: string; message: string }; actor: string },
  ): Promise<boolean>;
}

/** The run failure code of a pause whose time ran out with `onTimeout: "fail"`. */
export const APPROVAL_TIMED_OUT = "approval_timed_out";

/**
 * How a timeout went: `decided` here (this instance won), `taken` (another answer, from anywhere, came
 * first), or `refused` (the run service would not resume it now: `error` says why).
 */
export type TimeoutOutcome = { kind: "decided" } | { kind: "taken" } | { kind: "refused"; error: unknown };

const describe = (item: InboxItem, limit: string) =>
  `${item.tool ? `the call of ${item.tool}` : "this pause"} waited past its time limit (${limit})`;

/** The words the decision carries: in the `resumed` event's note, and the LLM's next message. */
export function getTimeoutNote(item: InboxItem, action: ApprovalTimeoutAction): string {
  const limit = item.dueAt ? `due ${item.dueAt}` : "approval.timeoutS";
  const did = { approve: "approved", reject: "rejected", fail: "failed the run" }[action];
  return `Nobody decided: ${describe(item, limit)}, so the server ${did} (approval.onTimeout "${action}").`;
}

/**
 * Decides one pause past its due time as its `approval.onTimeout` says, through the run service's own
 * conditional writes (a resume moves the run from paused with this token once; a fail claims it while it
 * waits there), so that whichever instance comes first decides and every other is `taken`.
 */
export async function decideTimeout(
  runs: TimeoutRuns,
  item: InboxItem,
  action: ApprovalTimeoutAction = item.onTimeout ?? "reject",
): Promise<TimeoutOutcome> {
  const resumeToken = item.resumeToken ?? "";
  if (action === "fail") {
    const failed = await runs.failPausedRun(item.runId, {
      resumeToken,
      error: { code: APPROVAL_TIMED_OUT, message: getTimeoutNote(item, "fail") },
      actor: TIMEOUT_ACTOR,
    });
    return failed ? { kind: "decided" } : { kind: "taken" };
  }
  try {
    await runs.resumeRun(item.runId, {
      resumeToken,
      decision: action,
      userInput: getTimeoutNote(item, action),
      actor: TIMEOUT_ACTOR,
    });
    return { kind: "decided" };
  } catch (error) {
    // A resume conflict names its reason (already_answered, stale_token, not_paused): someone came first.
    const reason =
      error instanceof ApiError ? (error.details as { reason?: unknown } | undefined)?.reason : undefined;
    if (error instanceof ApiError && error.code === "invalid_state" && typeof reason === "string") {
      return { kind: "taken" };
    }
    return { kind: "refused", error };
  }
}
