import { z } from "zod";
import { Slug } from "./names.js";
import { GroupReport, MergeStrategy, ResumeDecision, Usage } from "./planner-action.js";
import { RunStatus, StartRunRequest } from "./api.js";
import { Preview, TaskStatus } from "./run-event.js";

const JsonRecord = z.record(z.string(), z.unknown());

/**
 * A session is what a person talks to: an agent (its version pinned at creation), turns in order (each a
 * run), background tasks (each a run of `kind: "task"`), pending merges, and its own ordered event log.
 * The record is a fold of that log (`applySessionEvent`), so the server, the designer and the CLI agree.
 */
export const SessionStatus = z.enum(["idle", "running", "waiting", "closed"]);
export type SessionStatus = z.infer<typeof SessionStatus>;

/** A background task's status: the planner's, or `interrupted` when its process stopped under it. */
export const SessionTaskStatus = z.enum([...TaskStatus.options, "interrupted"]);
export type SessionTaskStatus = z.infer<typeof SessionTaskStatus>;

export const SessionTurn = z.object({
  runId: z.string(),
  /** 1-based. */
  turn: z.int().positive(),
  query: z.string(),
  status: RunStatus,
  answer: z.string().nullable(),
  /** The answer as an object, when the turn had an answer schema (the agent's, or `/v1`'s `text.format`). */
  data: z.record(z.string(), z.unknown()).optional(),
});
export type SessionTurn = z.infer<typeof SessionTurn>;

/** What a background task runs. */
export const SessionTaskJob = z.object({
  mode: z.enum(["subagent", "tool"]),
  query: z.string().optional(),
  tool: z.string().optional(),
  toolArgs: JsonRecord.optional(),
});
export type SessionTaskJob = z.infer<typeof SessionTaskJob>;

export const SessionTask = z.object({
  taskId: z.string(),
  /** The task's own run (`kind: "task"`): watch, replay or cancel it like any run. */
  runId: z.string(),
  /** The turn's run that spawned it. */
  parentRunId: z.string(),
  name: z.string(),
  groupId: z.string().optional(),
  status: SessionTaskStatus,
  mergeStrategy: MergeStrategy,
  error: z.looseObject({ code: z.string(), message: z.string() }).optional(),
  /** The turn that spawned it (1-based). */
  turn: z.int().positive().optional(),
  /** What it runs: a sub-agent's query, or one tool with its args (kept to start it when a slot frees). */
  job: SessionTaskJob.optional(),
  /** Its result, bounded (a sub-agent's ContextCapsule, or the tool's output), once it completed. */
  result: Preview.optional(),
});
export type SessionTask = z.infer<typeof SessionTask>;

/**
 * A task group of a session (seed 000): open until its turn yields (or a task seals it), then it reports
 * as `report` says once every task ended. `mergeStrategy` is the explicit `group_merge_strategy`, if any.
 */
export const SessionTaskGroup = z.object({
  groupId: z.string(),
  name: z.string(),
  turn: z.int().positive(),
  sealed: z.boolean(),
  report: GroupReport,
  mergeStrategy: MergeStrategy.optional(),
  retainTurn: z.boolean(),
  /** Sealed, and every task ended. */
  complete: z.boolean(),
});
export type SessionTaskGroup = z.infer<typeof SessionTaskGroup>;

export const MergeTask = z.object({
  taskId: z.string(),
  runId: z.string(),
  name: z.string(),
  status: SessionTaskStatus,
  result: Preview.optional(),
  /** Why it did not complete (failed, timed out, interrupted). */
  error: z.looseObject({ code: z.string(), message: z.string() }).optional(),
});
export type MergeTask = z.infer<typeof MergeTask>;

/** Results held for a person (HUMAN_GATED): one task's, or a whole group's as one batch. */
export const PendingMerge = z.object({
  mergeId: z.string(),
  name: z.string(),
  groupId: z.string().optional(),
  strategy: MergeStrategy,
  tasks: z.array(MergeTask),
});
export type PendingMerge = z.infer<typeof PendingMerge>;

/** A held merge once a person decided it (`merge_decided`): what it was, the decision, the note, who. */
export const SessionDecidedMerge = PendingMerge.extend({
  decision: ResumeDecision.extract(["approve", "reject"]),
  note: z.string().optional(),
  /** Who decided: the key's name, or `WADDLE_TOKEN`; absent on a server without keys or token. */
  actor: z.string().optional(),
  /** When (the `merge_decided` event's `ts`, ms since the epoch). */
  decidedAt: z.number().nonnegative(),
});
export type SessionDecidedMerge = z.infer<typeof SessionDecidedMerge>;

/**
 * Task results that reach the next turns' context: APPEND and REPLACE results as they arrive (per the
 * group's `group_report`), HUMAN_GATED ones once a person approved them. `afterTurn`: the turns started
 * when it was merged (the turn after it sees it).
 */
export const SessionMergedResult = z.object({
  name: z.string(),
  strategy: MergeStrategy,
  groupId: z.string().optional(),
  mergeId: z.string().optional(),
  afterTurn: z.int().nonnegative(),
  tasks: z.array(MergeTask),
});
export type SessionMergedResult = z.infer<typeof SessionMergedResult>;

export const SessionRecord = z.object({
  id: z.string(),
  agentId: Slug,
  agentVersion: z.int().positive(),
  /** The channel `agentVersion` was resolved from when the session was created, if one was. */
  channel: z.string().optional(),
  title: z.string(),
  status: SessionStatus,
  turns: z.array(SessionTurn),
  tasks: z.array(SessionTask),
  pendingMerges: z.array(PendingMerge),
  /** The task groups (background tasks that report together). */
  groups: z.array(SessionTaskGroup).optional(),
  /** Task results merged into what the next turns see, oldest first. */
  merged: z.array(SessionMergedResult).optional(),
  /** Held merges a person decided (applied or rejected), oldest first: the decision stays visible. */
  decidedMerges: z.array(SessionDecidedMerge).optional(),
  usage: Usage,
  /** The session log's last `seq`: `GET /api/sessions/:id/events?after=` continues from it. */
  lastSeq: z.int().nonnegative(),
  /** Earlier turns up to this one reach the model as a summary (`context_compacted`). */
  compactedThroughTurn: z.int().nonnegative(),
  /** That summary (the planner's compacted state), when there is one. */
  contextSummary: z.object({ throughTurn: z.int().positive(), state: z.unknown() }).optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SessionRecord = z.infer<typeof SessionRecord>;

/** A session in a list: what a picker shows. */
export const SessionSummary = SessionRecord.pick({
  id: true,
  agentId: true,
  agentVersion: true,
  title: true,
  status: true,
  usage: true,
  createdAt: true,
  updatedAt: true,
}).extend({ turnCount: z.int().nonnegative(), lastQuery: z.string().nullable() });
export type SessionSummary = z.infer<typeof SessionSummary>;

export const SESSION_TITLE_MAX = 200;

export const CreateSessionRequest = z.strictObject({
  agentId: Slug,
  agentVersion: z.int().positive().optional(),
  /** Pin what this channel serves now; `latest`: the latest save (default: production, else the latest save). */
  channel: StartRunRequest.shape.channel,
  title: z.string().trim().min(1).max(SESSION_TITLE_MAX).optional(),
});
export type CreateSessionRequest = z.infer<typeof CreateSessionRequest>;
export const CreateSessionResponse = z.object({ sessionId: z.string() });
export type CreateSessionResponse = z.infer<typeof CreateSessionResponse>;

/**
 * `POST /api/sessions/:id/turns` body: the session's next turn, on its pinned version. `context` is the
 * turn's tool context (`StartRunRequest.toolContext`): for tools only, never shown to the LLM or stored.
 */
export const StartSessionTurnRequest = z.strictObject({
  query: StartRunRequest.shape.query,
  context: StartRunRequest.shape.toolContext,
});
export type StartSessionTurnRequest = z.infer<typeof StartSessionTurnRequest>;
/** `POST /api/sessions/:id/turns` answer (202), also `POST /api/runs {sessionId}`'s: the turn's run. */
export const StartSessionTurnResponse = z.object({
  runId: z.string(),
  sessionId: z.string(),
  turn: z.int().positive(),
});
export type StartSessionTurnResponse = z.infer<typeof StartSessionTurnResponse>;

export const ListSessionsQuery = z.strictObject({
  agentId: Slug.optional(),
  limit: z.coerce.number().int().min(1).max(1_000).optional(),
});
export type ListSessionsQuery = z.infer<typeof ListSessionsQuery>;
export const SessionsListResponse = z.object({ sessions: z.array(SessionSummary) });
export type SessionsListResponse = z.infer<typeof SessionsListResponse>;

export const MergeDecisionRequest = z.strictObject({
  decision: ResumeDecision.extract(["approve", "reject"]),
  note: z.string().max(4_000).optional(),
});
export type MergeDecisionRequest = z.infer<typeof MergeDecisionRequest>;
