import type { ResumeConflictDetails } from "@waddle/protocol";

/** What to tell a person whose decision on a pause came second (or too late), from the server's 409. */
export function getConflictMessage(details: ResumeConflictDetails): string {
  const now = `The run is now ${details.status}.`;
  switch (details.reason) {
    case "already_answered":
      return `This pause was already answered by someone else. ${now}`;
    case "not_paused":
      return `The run is no longer waiting for a decision. ${now}`;
    case "stale_token":
      return `This pause was already answered; the run has moved on. ${now}`;
  }
}
