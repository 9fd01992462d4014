/**
 * What a visitor reads while their turn waits at a pause: who it waits for, and the tool by name. Never the
 * tool's arguments, nor the pause's own message (written for the team, it may quote them).
 */
export function getWaitingMessage(pause: { reason: string; payload: Record<string, unknown> }): string {
  const { payload } = pause;
  const tool =
    typeof payload["tool"] === "string" && payload["tool"].length > 0 ? payload["tool"] : undefined;
  switch (pause.reason) {
    case "approval_required":
      if (payload["why"] === "human_gated_merge") {
        return "Waiting for a team member to approve the results of a background task";
      }
      if (payload["why"] === "spawn_requires_confirmation") {
        return "Waiting for a team member to approve starting a background task";
      }
      return `Waiting for a team member to approve ${tool ?? "the next step"}`;
    case "await_input":
      return "Waiting for a team member to reply";
    case "external_event":
      return "Waiting for an outside event";
    case "constraints_conflict":
      return "Waiting for a team member to review the next step";
    case "guard":
      // A guard holds the visitor's message, a step's result or the answer: which, never what it found.
      return payload["on"] === "output"
        ? "Waiting for a team member to review the answer"
        : payload["on"] === "input"
          ? "Waiting for a team member to review your message"
          : "Waiting for a team member to review a step";
    default:
      return "Waiting for a team member";
  }
}

/** The words for a session's background results held for a person (a HUMAN_GATED merge). */
export function getMergeWaitingMessage(name: string): string {
  return `Waiting for a team member to approve the results of ${name}`;
}
