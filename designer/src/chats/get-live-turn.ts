import { TERMINAL_RUN_STATUSES, type SessionRecord } from "@waddle/protocol";

/** The run of the session's turn still going (running, queued or paused for a person), if any. */
export function getLiveTurnRunId(record: Pick<SessionRecord, "turns"> | null): string | null {
  const last = record?.turns.at(-1);
  return last !== undefined && !TERMINAL_RUN_STATUSES.has(last.status) ? last.runId : null;
}
