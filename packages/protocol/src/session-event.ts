import { z } from "zod";
import { GroupReport, MergeStrategy, ResumeDecision, Usage } from "./planner-action.js";
import { RunStatus } from "./api.js";
import { Preview } from "./run-event.js";
import { MergeTask, SessionTaskStatus } from "./session.js";

const JsonRecord = z.record(z.string(), z.unknown());

/** A session's own log: `seq` starts at 1 and has no gaps, like a run's (`RunEvent`). */
const envelope = <T extends string, D extends z.ZodType>(type: T, data: D) =>
  z.object({
    sessionId: z.string().min(1),
    seq: z.int().positive(),
    ts: z.number().nonnegative(),
    type: z.literal(type),
    data,
  });

const TaskError = z.looseObject({ code: z.string(), message: z.string() });

export const TurnStartedEvent = envelope(
  "turn_started",
  z.looseObject({ runId: z.string(), turn: z.int().positive(), query: z.string() }),
);
/** The turn's run moved on without ending: paused for a person, resumed, queued again. */
export const TurnUpdatedEvent = envelope(
  "turn_updated",
  z.looseObject({ runId: z.string(), turn: z.int().positive(), status: RunStatus }),
);
export const TurnEndedEvent = envelope(
  "turn_ended",
  z.looseObject({
    runId: z.string(),
    turn: z.int().positive(),
    status: RunStatus,
    answer: z.string().nullable(),
    /** The answer as an object, when the turn had an answer schema. */
    data: z.record(z.string(), z.unknown()).optional(),
    usage: Usage.optional(),
  }),
);
export const SessionTaskSpawnedEvent = envelope(
  "task_spawned",
  z.looseObject({
    taskId: z.string(),
    runId: z.string(),
    parentRunId: z.string(),
    name: z.string(),
    mode: z.enum(["subagent", "tool"]),
    mergeStrategy: MergeStrategy,
    groupId: z.string().optional(),
    /** The spawning turn (1-based). */
    turn: z.int().positive().optional(),
    query: z.string().optional(),
    tool: z.string().optional(),
    toolArgs: JsonRecord.optional(),
    /** The task's group as it is after this spawn (created, joined, perhaps sealed by the task's args). */
    group: z
      .object({
        name: z.string(),
        turn: z.int().positive(),
        sealed: z.boolean(),
        report: GroupReport,
        mergeStrategy: MergeStrategy.optional(),
        retainTurn: z.boolean(),
      })
      .optional(),
  }),
);
export const SessionTaskUpdateEvent = envelope(
  "task_update",
  z.looseObject({
    taskId: z.string(),
    runId: z.string(),
    status: SessionTaskStatus,
    result: Preview.optional(),
    error: TaskError.optional(),
    groupId: z.string().optional(),
    usage: Usage.optional(),
    /** The result reaches the next turn's context now (an ungrouped APPEND or REPLACE task). */
    merged: z.boolean().optional(),
  }),
);
export const SessionTaskGroupReportEvent = envelope(
  "task_group_report",
  z.looseObject({
    groupId: z.string(),
    name: z.string(),
    report: z.enum(["all", "any"]),
    mergeStrategy: MergeStrategy,
    tasks: z.array(MergeTask),
    /** The reported results reach the next turn's context now (APPEND or REPLACE). */
    merged: z.boolean().optional(),
  }),
);
export const MergePendingEvent = envelope(
  "merge_pending",
  z.looseObject({
    mergeId: z.string(),
    name: z.string(),
    groupId: z.string().optional(),
    strategy: MergeStrategy,
    tasks: z.array(MergeTask),
  }),
);
export const MergeDecidedEvent = envelope(
  "merge_decided",
  z.looseObject({
    mergeId: z.string(),
    decision: ResumeDecision.extract(["approve", "reject"]),
    note: z.string().optional(),
    actor: z.string().optional(),
  }),
);
export const ContextCompactedEvent = envelope(
  "context_compacted",
  z.looseObject({
    /** Turns 1…throughTurn now reach the model as a summary. */
    throughTurn: z.int().positive(),
    method: z.enum(["rule_based", "llm"]),
    tokensBefore: z.int().nonnegative(),
    tokensAfter: z.int().nonnegative(),
    /** The summary that now stands for those turns. */
    summary: z.unknown().optional(),
  }),
);
export const SessionClosedEvent = envelope(
  "session_closed",
  z.looseObject({ reason: z.string().optional() }),
);

export const SessionEvent = z.discriminatedUnion("type", [
  TurnStartedEvent,
  TurnUpdatedEvent,
  TurnEndedEvent,
  SessionTaskSpawnedEvent,
  SessionTaskUpdateEvent,
  SessionTaskGroupReportEvent,
  MergePendingEvent,
  MergeDecidedEvent,
  ContextCompactedEvent,
  SessionClosedEvent,
]);
export type SessionEvent = z.infer<typeof SessionEvent>;
export type SessionEventType = SessionEvent["type"];
/** The event of one type, e.g. `SessionEventOf<"turn_ended">`. */
export type SessionEventOf<T extends SessionEventType> = Extract<SessionEvent, { type: T }>;
/** What a writer gives: the store assigns `seq`. */
export type NewSessionEvent = {
  [T in SessionEventType]: Omit<SessionEventOf<T>, "seq" | "sessionId" | "ts"> & { ts?: number };
}[SessionEventType];
