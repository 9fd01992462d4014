import { PlannerError } from "../errors/planner-error.js";

/** Tokens being resumed right now, by any planner of this process (tokens are unique, stores may differ). */
const inFlight = new Set<string>();
/** Tokens used recently, to tell "already used" from "unknown" in errors. Bounded. */
const used = new Set<string>();
const MAX_REMEMBERED = 10_000;

/**
 * Makes a resume token single-use within the process, even for two resumes that overlap: the first claims
 * it until its state is deleted from the store; a second one is refused at once with
 * `resume_token_in_use`. (`StateStore` has no atomic take; across processes the store's owner must
 * serialize resumes of one run, as the server does.)
 */
export function claimResumeToken(token: string): void {
  if (inFlight.has(token)) {
    throw new PlannerError(
      "resume_token_in_use",
      `Resume token "${shorten(token)}" is being used by another resume right now: a paused run continues once.`,
      { details: { token } },
    );
  }
  inFlight.add(token);
}

/** Ends a claim; `consumed` when the token's state was deleted (the token is now used). */
export function releaseResumeToken(token: string, consumed: boolean): void {
  inFlight.delete(token);
  if (!consumed) return;
  if (used.size >= MAX_REMEMBERED) used.clear();
  used.add(token);
}

/** The error for a token whose state the store does not have. */
export function getUnknownTokenError(token: string): PlannerError {
  const reason = used.has(token)
    ? "was already used: a paused run continues once, and its next pause has a new token"
    : "is unknown: it was never issued by this store, or its run was resumed or cancelled";
  return new PlannerError("unknown_resume_token", `Resume token "${shorten(token)}" ${reason}.`, {
    details: { token },
  });
}

function shorten(token: string): string {
  return token.length <= 48 ? token : `${token.slice(0, 45)}…`;
}
