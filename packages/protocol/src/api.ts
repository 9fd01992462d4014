import { z } from "zod";
import { ForkOf } from "./fork.js";
import { ApprovalTimeoutAction } from "./inbox.js";
import { AgentSpec } from "./agent-spec.js";
import { Slug } from "./names.js";
import { PlannerResult, ResumeDecision, Usage } from "./planner-action.js";
import { ChannelName, LATEST_CHANNEL, RELEASE_ERROR_CODES } from "./releases.js";
import { PUBLIC_CHAT_ERROR_CODES, Rating, RunRating } from "./public-chat.js";
import { RunTrigger, TRIGGER_ERROR_CODES, TriggerId, TriggerKind } from "./triggers.js";
import { RunEvent } from "./run-event.js";
import { SpecIssue } from "./spec-issue.js";

/** Error codes that cross the wire in `{code, message, details}`. */
export const API_ERROR_CODES = [
  "bad_request",
  "invalid_json",
  "validation_failed",
  "invalid_spec",
  /** A spec names an LLM endpoint or key variable the server does not allow. */
  "llm_endpoint_not_allowed",
  /** A spec names an MCP server that `WADDLE_MCP_SERVERS` does not list. */
  "mcp_server_not_configured",
  "unauthorized",
  "forbidden",
  "not_found",
  "conflict",
  "payload_too_large",
  "unsupported_media_type",
  "invalid_state",
  "rate_limited",
  /** An `Idempotency-Key` sent again with another request body. */
  "idempotency_key_reused",
  /** The request that holds this `Idempotency-Key` has not started its run yet: retry shortly. */
  "request_in_progress",
  /**
   * A run failed after a tool with `write`, `external` or `stateful` side effects ran: answered with a status
   * that clients do not retry, since a retry would run those tools again.
   */
  "run_failed_after_side_effects",
  /** A turn names another agent than its session's. */
  "session_agent_mismatch",
  /** A tool test of a tool with side effects (or that requires approval) sent without `confirm: true`. */
  "confirmation_required",
  /** A run of an agent version saved with errors (`invalid: true`): the details list the issues. */
  "invalid_agent_version",
  /** A fork that cannot start: a step out of range, an edit that does not fit (`details.reason`). */
  "invalid_fork",
  /** Two cases of one test suite with the same name (`details.name`, `details.indices`). */
  "duplicate_case_name",
  ...RELEASE_ERROR_CODES,
  ...PUBLIC_CHAT_ERROR_CODES,
  ...TRIGGER_ERROR_CODES,
  "internal",
] as const;
export const ApiErrorCode = z.enum(API_ERROR_CODES);
export type ApiErrorCode = z.infer<typeof ApiErrorCode>;

/** The only error shape that leaves the server: a code, a message that says what to fix, details. */
export const ErrorBody = z.object({
  code: z.string(),
  message: z.string(),
  details: z.unknown().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

export const HealthResponse = z.object({
  ok: z.boolean(),
  version: z.string(),
  offline: z.boolean().optional(),
  authRequired: z.boolean().optional(),
  /**
   * The absolute path of this server's CLI script (`node <cliPath> run …` works from any folder; the CLI is
   * not on npm). Absent when the server has none, and from a server with a token to a caller without one.
   */
  cliPath: z.string().optional(),
});
export type HealthResponse = z.infer<typeof HealthResponse>;

export const AgentSummary = z.object({
  id: Slug,
  name: z.string(),
  version: z.int().positive(),
  updatedAt: z.string(),
  description: z.string().optional(),
  toolCount: z.int().nonnegative().optional(),
});
export type AgentSummary = z.infer<typeof AgentSummary>;
export const AgentsListResponse = z.object({ agents: z.array(AgentSummary) });
export type AgentsListResponse = z.infer<typeof AgentsListResponse>;

/** `POST /api/agents` body is an AgentSpec; the answer: */
export const CreateAgentResponse = z.object({
  id: Slug,
  version: z.int().positive(),
  /** Saved with errors (`allowInvalid`): runs of this version are refused until a valid one is saved. */
  invalid: z.boolean().optional(),
});
export type CreateAgentResponse = z.infer<typeof CreateAgentResponse>;

export const AgentRecord = z.object({
  id: Slug,
  version: z.int().positive(),
  spec: AgentSpec,
  updatedAt: z.string(),
  createdAt: z.string().optional(),
  /** Saved with errors (the designer's "save anyway"): runs of this version are refused. */
  invalid: z.boolean().optional(),
});
export type AgentRecord = z.infer<typeof AgentRecord>;

/** `PUT /api/agents/:id`: the spec and the version it edits; a stale `baseVersion` gets 409. */
export const UpdateAgentRequest = z.object({
  spec: z.unknown(),
  baseVersion: z.int().positive(),
  message: z.string().max(500).optional(),
  /** Save a spec whose only problems are errors of cross references as a version marked `invalid`. */
  allowInvalid: z.boolean().optional(),
});
export type UpdateAgentRequest = z.infer<typeof UpdateAgentRequest>;
export const UpdateAgentResponse = CreateAgentResponse;
export type UpdateAgentResponse = z.infer<typeof UpdateAgentResponse>;

/** 409 details: what the server holds now, so the client can reload or overwrite. */
export const ConflictDetails = z.object({
  currentVersion: z.int().positive(),
  baseVersion: z.int().positive(),
});
export type ConflictDetails = z.infer<typeof ConflictDetails>;

export const AgentVersionSummary = z.object({
  version: z.int().positive(),
  createdAt: z.string(),
  name: z.string(),
  message: z.string().optional(),
  invalid: z.boolean().optional(),
});
export type AgentVersionSummary = z.infer<typeof AgentVersionSummary>;
export const AgentVersionsResponse = z.object({ versions: z.array(AgentVersionSummary) });
export type AgentVersionsResponse = z.infer<typeof AgentVersionsResponse>;
export const AgentVersionResponse = AgentRecord;
export type AgentVersionResponse = z.infer<typeof AgentVersionResponse>;

export const ValidateResponse = z.object({ ok: z.boolean(), issues: z.array(SpecIssue) });
export type ValidateResponse = z.infer<typeof ValidateResponse>;

/**
 * `POST /api/agents/import` body: a full spec, a PenguiFlow `planning_hints` dict (bare or as
 * `{planning_hints}`), or `{base, planning_hints}` to merge hints into an existing spec.
 */
export const ImportResponse = z.object({ spec: AgentSpec.nullable(), issues: z.array(SpecIssue) });
export type ImportResponse = z.infer<typeof ImportResponse>;

/** `GET /api/agents/:id/export?format=`: the spec, a TypeScript module, a TypeScript project zip, a PenguiFlow project zip. */
export const ExportFormat = z.enum(["json", "ts", "ts-project", "penguiflow"]);
export type ExportFormat = z.infer<typeof ExportFormat>;

export const RunStatus = z.enum([
  "queued",
  "running",
  "paused",
  "finished",
  "failed",
  "cancelled",
  "interrupted",
]);
export type RunStatus = z.infer<typeof RunStatus>;
export const TERMINAL_RUN_STATUSES: ReadonlySet<RunStatus> = new Set([
  "finished",
  "failed",
  "cancelled",
  "interrupted",
]);

export const StartRunRequest = z.strictObject({
  agentId: Slug,
  query: z.string().min(1).max(100_000),
  /** Secrets and opaque values for tools; never shown to the LLM, never stored in events. */
  toolContext: z.record(z.string(), z.unknown()).optional(),
  /** Run a saved version other than the latest. */
  agentVersion: z.int().positive().optional(),
  /** Run what this channel serves; `latest`: the latest save (default: production, else the latest save). */
  channel: z.union([ChannelName, z.literal(LATEST_CHANNEL)]).optional(),
  /** Run on the embedded offline model whatever the spec's LLMs say (a choice the person makes). */
  offline: z.boolean().optional(),
});
export type StartRunRequest = z.infer<typeof StartRunRequest>;
/**
 * `POST /api/runs` with `sessionId`: a turn of that session. `agentId` may be left out (the session's); given,
 * it must be the session's. The session's pinned version runs unless `agentVersion` names another.
 */
export const StartTurnRequest = z.strictObject({
  sessionId: z.string().regex(/^ses_[A-Za-z0-9_-]{1,80}$/, "must be a session id such as ses_4f9c2a1b"),
  agentId: Slug.optional(),
  query: StartRunRequest.shape.query,
  toolContext: StartRunRequest.shape.toolContext,
  agentVersion: StartRunRequest.shape.agentVersion,
});
export type StartTurnRequest = z.infer<typeof StartTurnRequest>;
export const StartRunResponse = z.object({
  runId: z.string(),
  sessionId: z.string().optional(),
  turn: z.int().positive().optional(),
});
export type StartRunResponse = z.infer<typeof StartRunResponse>;

export const PendingPause = z.object({
  reason: z.string(),
  payload: z.record(z.string(), z.unknown()),
  resumeToken: z.string(),
  /** When the run paused (its `pause` event's time). */
  pausedAt: z.string().optional(),
  /** When the server decides it if nobody has (`approval.timeoutS`), and how (issue 34). */
  dueAt: z.string().optional(),
  onTimeout: ApprovalTimeoutAction.optional(),
});
export type PendingPause = z.infer<typeof PendingPause>;

/** Where a run belongs: a turn of a session, or a session's background task spawned by a turn. */
export const RunOrigin = z.object({
  sessionId: z.string().optional(),
  /** The turn's number in its session, 1-based. */
  turn: z.int().positive().optional(),
  /** `task`: a background task of a session, a run of its own. */
  kind: z.enum(["run", "task"]).optional(),
  /** The turn's run that spawned this task. */
  parentRunId: z.string().optional(),
  /** `test`: a case of a test run; history lists such runs only when asked (`GET /api/runs?purpose=test`). */
  purpose: z.enum(["run", "test"]).optional(),
  /** The test run and case a `test` run belongs to. */
  testRunId: z.string().optional(),
  caseId: z.string().optional(),
  /** The channel the run's version was resolved from (`production`, `staging`…), when one was. */
  channel: z.string().optional(),
  /** A public chat's turn: the chat (`/public/:publicId`) whose anonymous visitor asked (issue 33). */
  publicId: z.string().optional(),
  /** The name of the key (or `WADDLE_TOKEN`) whose request started the run; absent for the local user. */
  startedBy: z.string().optional(),
  /** A fork: the run and step it was forked from (`POST /api/runs/:id/fork`). */
  forkOf: ForkOf.optional(),
  /** A run a schedule or webhook trigger fired (issue 34). */
  trigger: RunTrigger.optional(),
  /**
   * OpenTelemetry, when the server traces: the W3C `traceparent` of the run's span, and of the caller's
   * span when the request that started it carried one. Kept so that every worker continues one trace.
   */
  trace: z.object({ traceparent: z.string(), parent: z.string().optional() }).optional(),
});
export type RunOrigin = z.infer<typeof RunOrigin>;

/**
 * How people decided a run's pauses, counted by decision (`approve`, `edit`: approved with other args,
 * `reject`), from its `resumed` events.
 */
export const RunDecisions = z.object({
  approve: z.int().nonnegative(),
  edit: z.int().nonnegative(),
  reject: z.int().nonnegative(),
});
export type RunDecisions = z.infer<typeof RunDecisions>;

export const RunRecord = z.object({
  id: z.string(),
  agentId: Slug,
  agentVersion: z.int().positive(),
  status: RunStatus,
  query: z.string(),
  result: PlannerResult.nullable(),
  usage: Usage,
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  createdAt: z.string().optional(),
  lastSeq: z.int().nonnegative().optional(),
  pause: PendingPause.nullable().optional(),
  error: ErrorBody.nullable().optional(),
  offline: z.boolean().optional(),
  /** The person chose to run on the offline model instead of the agent's own ("Run on the offline model instead"). */
  offlineChosen: z.boolean().optional(),
  /**
   * The keys (never the values) of the toolContext the run was started or last resumed with, when it had
   * any: after a restart the server holds no toolContext, and a resume must supply it again.
   */
  toolContextKeys: z.array(z.string()).optional(),
  ...RunOrigin.shape,
  /** Steps the planner took, when known: from the result's metadata of a finished or paused run. */
  steps: z.int().nonnegative().optional(),
  /**
   * How long the run worked, when known: the result's metadata (time spent waiting at a pause excluded),
   * else `finishedAt - startedAt` for a run that ended without one (failed, interrupted).
   */
  durationMs: z.number().nonnegative().optional(),
  /** The decisions people made at the run's pauses; absent while none was made. */
  decisions: RunDecisions.optional(),
  /** A public chat visitor's rating of the answer, with their comment; absent while unrated. */
  rating: RunRating.optional(),
});
export type RunRecord = z.infer<typeof RunRecord>;
export const RunsListResponse = z.object({ runs: z.array(RunRecord) });
export type RunsListResponse = z.infer<typeof RunsListResponse>;

/** Most runs one `GET /api/runs` answers; the default is `RUNS_LIST_DEFAULT_LIMIT`. */
export const RUNS_LIST_MAX_LIMIT = 1_000;
export const RUNS_LIST_DEFAULT_LIMIT = 100;

/** A comma list of run statuses (`finished,failed`), each known, as a set-like array without repeats. */
const RunStatusList = z.string().transform((text, context) => {
  const statuses: RunStatus[] = [];
  for (const name of text.split(",").map((part) => part.trim())) {
    const parsed = RunStatus.safeParse(name);
    if (!parsed.success) {
      context.addIssue({
        code: "custom",
        message:
          `unknown run status "${name.slice(0, 40)}": use a comma list of ` + RunStatus.options.join(", "),
      });
      return z.NEVER;
    }
    if (!statuses.includes(parsed.data)) statuses.push(parsed.data);
  }
  return statuses;
});

/**
 * `GET /api/runs?agentId=&status=a,b&limit=N&purpose=run|test|all&channel=&rating=up|down`: newest first;
 * tests only when asked; `channel`: only runs resolved from that channel (a session's turns: the channel it
 * was created on); `rating`: only runs a public chat visitor rated so; `trigger`, `triggerKind`: only runs a
 * trigger fired.
 */
export const ListRunsQuery = z.strictObject({
  agentId: Slug.optional(),
  channel: ChannelName.optional(),
  /** Only runs a public chat visitor rated so (`up` or `down`). */
  rating: Rating.optional(),
  /** Only runs this trigger fired, or any trigger of this kind (issue 34). */
  trigger: TriggerId.optional(),
  triggerKind: TriggerKind.optional(),
  purpose: z.enum(["run", "test", "all"]).default("run"),
  status: RunStatusList.optional(),
  limit: z.coerce.number().int().min(1).max(RUNS_LIST_MAX_LIMIT).default(RUNS_LIST_DEFAULT_LIMIT),
});
export type ListRunsQuery = z.infer<typeof ListRunsQuery>;

export const RunEventsResponse = z.object({ events: z.array(RunEvent) });
export type RunEventsResponse = z.infer<typeof RunEventsResponse>;

/** `POST /api/runs/:id/resume`. `args` replaces the paused tool's args when `decision` is `edit`. */
export const ResumeRequest = z.strictObject({
  resumeToken: z.string().min(1),
  decision: ResumeDecision,
  args: z.record(z.string(), z.unknown()).optional(),
  userInput: z.string().max(100_000).optional(),
  /**
   * Secrets and opaque values for tools, given again: the server never stores a run's toolContext, so a
   * run paused before a restart needs it again to continue.
   */
  toolContext: z.record(z.string(), z.unknown()).optional(),
});
export type ResumeRequest = z.infer<typeof ResumeRequest>;

/**
 * Why a resume was refused with 409 because of the run's state: `already_answered` (another decision on
 * this pause came first), `not_paused` (the run never paused there, or was cancelled), `stale_token` (the
 * token is not one of this run's pauses).
 */
export const ResumeConflictReason = z.enum(["already_answered", "not_paused", "stale_token"]);
export type ResumeConflictReason = z.infer<typeof ResumeConflictReason>;

/** `details` of such a 409 (code `invalid_state`): the run's state now, so a client can show it. */
export const ResumeConflictDetails = z.object({
  reason: ResumeConflictReason,
  status: RunStatus,
  run: RunRecord.optional(),
});
export type ResumeConflictDetails = z.infer<typeof ResumeConflictDetails>;
