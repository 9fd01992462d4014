import { z } from "zod";
import { ApprovalTimeoutAction } from "./inbox.js";
import { PauseReason, ResumeDecision } from "./planner-action.js";
import { createRunEventEnvelope } from "./run-event-envelope.js";

// A run's pause and the decision that answers it (members of the `RunEvent` union in run-event.ts).

export const PauseEvent = createRunEventEnvelope(
  "pause",
  z.looseObject({
    reason: PauseReason,
    payload: z.record(z.string(), z.unknown()),
    resumeToken: z.string(),
    /** The server decides the pause at this ISO time unless a person did (`approval.timeoutS`). */
    dueAt: z.string().optional(),
    onTimeout: ApprovalTimeoutAction.optional(),
  }),
);
/** Longest decision note a `resumed` event keeps (the rest is cut, ending in "…"). */
export const RESUME_NOTE_MAX_CHARS = 2000;

/**
 * A person's decision on a pause. `note`: what they typed with it (the resume's `userInput`, trimmed, at
 * most `RESUME_NOTE_MAX_CHARS`), so that the run's events keep why it was approved, edited or rejected.
 */
export const ResumedEvent = createRunEventEnvelope(
  "resumed",
  z.looseObject({
    decision: ResumeDecision,
    reason: PauseReason.optional(),
    /** The edited args, bounded (a preview). */
    args: z.unknown().optional(),
    note: z.string().min(1).max(RESUME_NOTE_MAX_CHARS).optional(),
    /** Who decided: the key's name, or `WADDLE_TOKEN`; absent on a server without keys or token. */
    actor: z.string().optional(),
  }),
);

/** The `note` a `resumed` event carries for what a person typed with the decision (none when blank). */
export function getResumeNote(userInput: string | undefined): string | undefined {
  const note = userInput?.trim();
  if (note === undefined || note.length === 0) return undefined;
  return note.length <= RESUME_NOTE_MAX_CHARS ? note : `${note.slice(0, RESUME_NOTE_MAX_CHARS - 1)}…`;
}
