import type { NewSessionEvent, SessionEvent } from "@waddle/protocol";
import { SessionEvent as SessionEventSchema } from "@waddle/protocol";

export interface SessionEventFactory {
  /** The next event of the session's log: `seq` counts on from 1, `ts` moves 1 s a call. Checked with the schema. */
  next(event: NewSessionEvent): SessionEvent;
  readonly seq: number;
}

/** Builds a session's log by hand for tests, in the protocol's envelope (the store assigns seq so). */
export function createSessionEventFactory(
  sessionId = "ses_test1",
  start = { seq: 1, ts: Date.UTC(2026, 0, 5, 9, 0, 0) },
): SessionEventFactory {
  let seq = start.seq;
  let ts = start.ts;
  return {
    get seq() {
      return seq;
    },
    next(event) {
      const full = SessionEventSchema.parse({ ...event, sessionId, seq, ts: event.ts ?? ts });
      seq += 1;
      ts += 1_000;
      return full;
    },
  };
}

/**
 * A session's log with background work: turn 1 spawns a group `research` of two tasks (one HUMAN_GATED
 * batch) and a lone APPEND task, then answers; the lone task completes, one of the group fails, the other
 * completes, the group reports and its results wait as one pending merge; turn 2 starts.
 */
export function makeTaskSessionLog(sessionId = "ses_test1"): SessionEvent[] {
  const events = createSessionEventFactory(sessionId);
  const task = (taskId: string, name: string, groupId?: string) => ({
    taskId,
    runId: `run_${taskId}`,
    parentRunId: "run_turn1",
    name,
    mode: "subagent" as const,
    mergeStrategy: groupId ? ("HUMAN_GATED" as const) : ("APPEND" as const),
    ...(groupId ? { groupId } : {}),
  });
  return [
    events.next({
      type: "turn_started",
      data: { runId: "run_turn1", turn: 1, query: "Research the market" },
    }),
    events.next({ type: "task_spawned", data: task("t1", "competitors", "g_research") }),
    events.next({ type: "task_spawned", data: task("t2", "pricing", "g_research") }),
    events.next({ type: "task_spawned", data: task("t3", "news") }),
    events.next({
      type: "turn_ended",
      data: { runId: "run_turn1", turn: 1, status: "finished", answer: "I started three tasks." },
    }),
    events.next({ type: "task_update", data: { taskId: "t3", runId: "run_t3", status: "completed" } }),
    events.next({
      type: "task_update",
      data: {
        taskId: "t2",
        runId: "run_t2",
        status: "failed",
        groupId: "g_research",
        error: { code: "tool_failed", message: "pricing API timed out" },
      },
    }),
    events.next({ type: "task_update", data: { taskId: "t1", runId: "run_t1", status: "running" } }),
    events.next({
      type: "task_update",
      data: { taskId: "t1", runId: "run_t1", status: "completed", groupId: "g_research" },
    }),
    events.next({
      type: "task_group_report",
      data: {
        groupId: "g_research",
        name: "research",
        report: "all",
        mergeStrategy: "HUMAN_GATED",
        tasks: [
          { taskId: "t1", runId: "run_t1", name: "competitors", status: "completed", result: { found: 4 } },
          { taskId: "t2", runId: "run_t2", name: "pricing", status: "failed" },
        ],
      },
    }),
    events.next({
      type: "merge_pending",
      data: {
        mergeId: "m_research",
        name: "research",
        groupId: "g_research",
        strategy: "HUMAN_GATED",
        tasks: [
          { taskId: "t1", runId: "run_t1", name: "competitors", status: "completed", result: { found: 4 } },
          { taskId: "t2", runId: "run_t2", name: "pricing", status: "failed" },
        ],
      },
    }),
    events.next({
      type: "turn_started",
      data: { runId: "run_turn2", turn: 2, query: "What did they find?" },
    }),
  ];
}
