/** Which waiting thing an inbox item is: a paused run, or a merge a session holds for a person. */
export type InboxItemRef =
  { kind: "pause"; runId: string } | { kind: "merge"; sessionId: string; mergeId: string };

const PAUSE = /^pause:(run_[A-Za-z0-9_-]{1,80})$/;
const MERGE = /^merge:(ses_[A-Za-z0-9_-]{1,80}):([A-Za-z0-9_.-]{1,120})$/;

/** `pause:<runId>` or `merge:<sessionId>:<mergeId>`; undefined for anything else. */
export function parseInboxItemId(itemId: string): InboxItemRef | undefined {
  const pause = PAUSE.exec(itemId);
  if (pause) return { kind: "pause", runId: pause[1]! };
  const merge = MERGE.exec(itemId);
  return merge ? { kind: "merge", sessionId: merge[1]!, mergeId: merge[2]! } : undefined;
}

export const getPauseItemId = (runId: string) => `pause:${runId}`;
export const getMergeItemId = (sessionId: string, mergeId: string) => `merge:${sessionId}:${mergeId}`;
