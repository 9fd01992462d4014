import type {
  AgentRecord,
  AgentSpec,
  AgentSummary,
  AgentVersionSummary,
  ErrorBody,
  ForkEdit,
  ForkReuse,
  PendingPause,
  PlannerResult,
  Rating,
  ResumeRequest,
  RunDecisions,
  RunEvent,
  RunOrigin,
  RunRecord,
  RunStatus,
  TaskStatus,
  TriggerKind,
  Usage,
} from "@waddle/protocol";
import type { BackgroundJob, SerializedPlannerState } from "@waddle/planner";
import { ApiError } from "../shared/api-error.js";
import type { CredentialStore } from "./credentials/credential-store.js";
import type { ApiKeyStore } from "./api-keys/api-key-store.js";
import type { RequestKeyStore } from "./request-keys/request-key-store.js";
import type { A2aTaskStore } from "./a2a-tasks/a2a-task-store.js";
import type { DraftStore } from "./drafts/draft-store.js";
import type { SessionStore } from "./sessions/session-store.js";
import type { TestStore } from "./tests/test-store.js";
import type { CallRecordStore } from "./call-records/call-record-store.js";
import type { AuditStore } from "./audit/audit-store.js";
import type { ReleaseStore } from "./releases/release-store.js";
import type { PublicChatStores } from "./public/public-chat-store.js";
import type { ShadowStore } from "./shadow/shadow-store.js";
import type { InboxMarkStore } from "./inbox/inbox-store.js";
import type { WebhookStore } from "./webhooks/webhook-store.js";
import type { TriggerStore } from "./triggers/trigger-store.js";

/** What a run starts with; the store fills `lastSeq`, `usage` and the timestamps. */
export interface NewRun {
  id: string;
  agentId: string;
  agentVersion: number;
  query: string;
  status: RunStatus;
  offline?: boolean;
  /** The person chose the offline model for this run ("Run on the offline model instead"). */
  offlineChosen?: boolean;
  /** The keys of the toolContext the run starts with (never its values). */
  toolContextKeys?: readonly string[];
  /** What the worker that claims the run does (queue mode). */
  work?: RunWork;
  /** Queue mode: nobody re-queues the run for this long (its job is being added). */
  leaseMs?: number;
  /** A session's turn or background task. */
  origin?: RunOrigin;
}

/**
 * What the next claim of a run does, kept with the run so that a lost job loses nothing: a new run's
 * `contextMeta`, or the accepted answer to its pause (never a toolContext: that is never stored).
 */
export interface RunWork {
  contextMeta?: Record<string, unknown>;
  /** A new run's own answer schema (`/v1`'s `response_format`); a paused run keeps it in its saved state. */
  answerSchema?: Record<string, unknown>;
  /** A fork's first start: where it forks its parent, with what edit and reuse (see `ForkWork`). */
  fork?: ForkWork;
  /** `actor`: who decided, for the `resumed` event. */
  resume?: Omit<ResumeRequest, "toolContext"> & { actor?: string };
  /** A session's background task (`kind: "task"`): what it runs (`ReactPlanner.runTask`). */
  task?: BackgroundJob;
}

/** What a fork's first start needs besides its stored prefix: checked with `ForkWorkShape` when read. */
export interface ForkWork {
  parentRunId: string;
  fromStep: number;
  edit?: ForkEdit;
  reuse: ForkReuse;
}

/** Fields of a run that change while it goes; `undefined` keeps the stored value, `null` clears it. */
export interface RunPatch {
  status?: RunStatus;
  result?: PlannerResult | null;
  usage?: Usage;
  startedAt?: string | null;
  finishedAt?: string | null;
  pause?: PendingPause | null;
  error?: ErrorBody | null;
  offline?: boolean;
  /** The keys of the toolContext a resume supplied; `null` clears them. */
  toolContextKeys?: readonly string[] | null;
  /** The decisions made at the run's pauses so far (its `resumed` events, counted). */
  decisions?: RunDecisions;
  /** Queue mode: what the next claim does; `null` once taken. */
  work?: RunWork | null;
  /** Queue mode: the run's lease runs this long from now; `null` frees it. */
  leaseMs?: number | null;
}

/** A background task of a run, as its `task_spawned` / `task_update` events describe it. */
export interface TaskRecord {
  runId: string;
  taskId: string;
  name: string;
  status: TaskStatus;
  mode?: "subagent" | "tool";
  groupId?: string;
  result?: unknown;
  error?: { code: string; message: string };
  updatedAt: string;
}

/** Written together with an event, in the same transaction. */
export interface AppendEventOptions {
  run?: RunPatch;
  task?: TaskRecord;
}

/** A run's latest checkpoint: the planner's state after its last completed step (queue mode). */
export interface RunCheckpoint {
  runId: string;
  /** The last event seq the state had emitted. */
  seq: number;
  state: Record<string, unknown>;
}

/**
 * A worker's claim on a run (queue mode). Claiming adds 1 to the run's `epoch`; every write made under a
 * claim names it (`fence`) and is refused with `fenced` once another claim took the run.
 */
export interface RunClaim {
  runId: string;
  owner: string;
  epoch: number;
  /** The status the run had when claimed: `running` means its last worker stopped mid-run. */
  status: RunStatus;
  work?: RunWork;
  cancelRequested: boolean;
}

/** What a batch of events is written with besides each event's own changes. */
export interface AppendBatchOptions {
  /** Refused (`fenced`, nothing written) unless the run's epoch is still this one. */
  fence?: { runId: string; epoch: number };
  /** Replaces the run's checkpoint in the same transaction. */
  checkpoint?: RunCheckpoint;
}

/** One event to append, with what it changes. */
export interface EventEntry {
  event: RunEvent;
  options?: AppendEventOptions;
}

export interface ListRunsOptions {
  agentId?: string;
  statuses?: readonly RunStatus[];
  limit?: number;
  /** `run`: runs that are not test cases; `test`: only those; all when left out. */
  purpose?: "run" | "test";
  /** Only runs whose origin records this channel. */
  channel?: string;
  /** Only runs a public chat visitor rated so (`publicChat.ratings`). */
  rating?: Rating;
  /** Only runs this trigger fired (`origin.trigger.id`), or any trigger of this kind. */
  trigger?: string;
  triggerKind?: TriggerKind;
}

/**
 * Everything Waddle keeps: agents with every saved version, runs, their append-only events, paused planner
 * states and background tasks. Implementations: `SqliteStore` (default) and `MemoryStore`; both pass
 * `storeConformanceCases`. Methods throw `StoreError` for conflicts, unknown ids and sequence gaps.
 */
export interface WaddleStore {
  listAgents(): Promise<AgentSummary[]>;
  getAgent(id: string): Promise<AgentRecord | undefined>;
  /**
   * Saves the first version of a new agent: 1, or past the highest version that runs of a deleted agent
   * with this id ran (so a run's `agentVersion` never names another agent's spec); `conflict` when taken.
   */
  createAgent(options: { spec: AgentSpec; message?: string; invalid?: boolean }): Promise<AgentRecord>;
  /** Saves a new version; `conflict` when `baseVersion` is not the latest, `not_found` for an unknown id. */
  updateAgent(options: {
    id: string;
    spec: AgentSpec;
    baseVersion: number;
    message?: string;
    /** Saved with errors: runs of this version are refused (`AgentRecord.invalid`). */
    invalid?: boolean;
  }): Promise<AgentRecord>;
  /** Deletes an agent and its versions (its runs stay); false when unknown. */
  deleteAgent(id: string): Promise<boolean>;
  listAgentVersions(id: string): Promise<AgentVersionSummary[] | undefined>;
  getAgentVersion(id: string, version: number): Promise<AgentRecord | undefined>;

  createRun(run: NewRun): Promise<RunRecord>;
  getRun(id: string): Promise<RunRecord | undefined>;
  /** Newest first. */
  listRuns(options?: ListRunsOptions): Promise<RunRecord[]>;
  /** `fence`: refused (`fenced`) unless the run's epoch is still this one. */
  updateRun(id: string, patch: RunPatch, options?: { fence?: number }): Promise<RunRecord>;

  /**
   * Appends one event; its `seq` must be the run's last seq + 1 (`seq_gap` otherwise). The event, the run
   * patch and the task are written in one transaction, so that a crash never leaves half of them.
   */
  appendEvent(event: RunEvent, options?: AppendEventOptions): Promise<void>;
  /**
   * Appends several events (of one run or more) in one transaction: all are written, or none, with the
   * batch's checkpoint, and only while its fence holds.
   */
  appendEvents(entries: readonly EventEntry[], batch?: AppendBatchOptions): Promise<void>;
  /** Events with `seq > afterSeq`, in order, at most `limit` (default: all). */
  listEvents(runId: string, options?: { afterSeq?: number; limit?: number }): Promise<RunEvent[]>;

  /** With `fence` (and `runId`): refused (`fenced`) unless the run's epoch is still `fence`. */
  savePausedState(options: {
    token: string;
    runId?: string;
    state: SerializedPlannerState;
    fence?: number;
  }): Promise<void>;
  loadPausedState(token: string): Promise<SerializedPlannerState | undefined>;
  deletePausedState(token: string): Promise<void>;

  listTasks(runId: string): Promise<TaskRecord[]>;

  /** The run's latest checkpoint, if it made one. */
  loadCheckpoint(runId: string): Promise<RunCheckpoint | undefined>;

  /**
   * Queue mode: claims a run whose status is one of `statuses` and that no live claim holds (never
   * claimed, released or expired; a queued run's own lease does not block) for `owner` during `leaseMs`,
   * adding 1 to its epoch. Undefined when the run is
   * unknown, in another status or held by a live lease. One claim wins among concurrent ones.
   */
  claimRun(options: {
    runId: string;
    owner: string;
    leaseMs: number;
    statuses: readonly RunStatus[];
  }): Promise<RunClaim | undefined>;
  /** Extends a claim's lease; `held` false once another claim took the run (then nothing changed). */
  renewClaim(claim: RunClaim, leaseMs: number): Promise<{ held: boolean; cancelRequested: boolean }>;
  /** Frees the run's lease if the claim still holds it (a paused or ended run waits for no one). */
  releaseClaim(claim: RunClaim): Promise<void>;
  /** Queued or running runs whose lease has expired or never was: their job was lost, or their worker stopped. */
  listUnclaimedRuns(limit?: number): Promise<{ runId: string; epoch: number; status: RunStatus }[]>;
  /**
   * Accepts an answer to a pause, once: the run goes from `paused` (with this resume token and no live
   * lease) to `queued` with `work` and a lease of `leaseMs` for its job to be taken. Undefined (nothing
   * changed) when another answer or a cancel came first.
   */
  queueResume(options: {
    runId: string;
    resumeToken: string;
    work: RunWork;
    leaseMs: number;
    patch?: RunPatch;
  }): Promise<{ run: RunRecord; epoch: number } | undefined>;
  /** Marks a run to cancel; its worker sees it at its next lease renewal. */
  requestCancel(runId: string): Promise<void>;

  /** Keys of requests that started runs, so that a client's retry answers from the run it started. */
  readonly requestKeys: RequestKeyStore;
  /** Sessions (what a person chats with) and their ordered logs. */
  readonly sessions: SessionStore;
  /** Agents' test suites and test runs. */
  readonly tests: TestStore;
  /** Each agent's unsaved edits. */
  readonly drafts: DraftStore;
  /** Credentials kept from the browser (sealed) and added allow-list entries. */
  readonly credentials: CredentialStore;
  /** API keys with roles (server/src/access), their secrets as salted hashes only. */
  readonly apiKeys: ApiKeyStore;
  /** Each run's steps and calls, for forks (`POST /api/runs/:id/fork`). */
  readonly callRecords: CallRecordStore;
  /** Who did what and when: append-only (`server/docs/audit.md`). */
  readonly audit: AuditStore;
  /** A2A tasks (`/a2a/:agentId`): each maps to a run, its context to a session. */
  readonly a2aTasks: A2aTaskStore;
  /** Agents' channels and their releases (issue 32). */
  readonly releases: ReleaseStore;
  /** Public chats, which visitor owns which session, ratings of runs (issue 33). */
  readonly publicChat: PublicChatStores;
  /** Shadow comparisons of candidate versions against a channel's recent traffic (issue 32). */
  readonly shadows: ShadowStore;
  /** What the approvals inbox adds to waiting items: assignee, snooze, notices sent (issue 34). */
  readonly inbox: InboxMarkStore;
  /** Outgoing webhooks (notifications) and their durable outbox (issue 34). */
  readonly webhooks: WebhookStore;
  /** Schedule and webhook triggers, their fires, tick claims and idempotency keys (issue 34). */
  readonly triggers: TriggerStore;

  /** Resolves when the database answers (for `/api/health`); stores in this process need none. */
  ping?(): Promise<void>;

  close(): Promise<void>;
}

export type StoreErrorCode = "conflict" | "not_found" | "seq_gap" | "closed" | "fenced";

/** A store refusal: a stale version, an unknown id, an event out of sequence. */
export class StoreError extends ApiError<StoreErrorCode> {
  declare readonly details?: Record<string, unknown>;

  constructor(code: StoreErrorCode, message: string, details?: Record<string, unknown>) {
    super(code, message, details);
    this.name = "StoreError";
  }
}

export function isStoreError(value: unknown): value is StoreError {
  return value instanceof StoreError;
}

export const EMPTY_USAGE: Usage = Object.freeze({
  promptTokens: 0,
  completionTokens: 0,
  reasoningTokens: 0,
  costUsd: 0,
  llmCalls: 0,
});

/** The summary row of an agent list. */
export function getAgentSummary(record: AgentRecord): AgentSummary {
  return {
    id: record.id,
    name: record.spec.name,
    version: record.version,
    updatedAt: record.updatedAt,
    description: record.spec.description,
    toolCount: record.spec.tools.length,
  };
}
