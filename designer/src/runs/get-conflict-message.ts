import type { ResumeConflictDetails } from "@waddle/protocol";

/**
 * What to tell a person whose decision on a pause came second (or too late), from the server's 409. The
 * run's status is left out: it goes on changing, so the panel shows it live beside this message.
 */
export function getConflictMessage(details: Pick<ResumeConflictDetails, "reason">): string {
  switch (details.reason) {
    case "already_answered":
      return "This pause was already answered by someone else.";
    case "not_paused":
      return "The run is no longer waiting for a decision.";
    case "stale_token":
      return "This pause was already answered; the run has moved on.";
  }
}
