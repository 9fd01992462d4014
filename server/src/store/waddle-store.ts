import type {
  AgentRecord,
  AgentSpec,
  AgentSummary,
  AgentVersionSummary,
  ErrorBody,
  PendingPause,
  PlannerResult,
  RunEvent,
  RunRecord,
  RunStatus,
  TaskStatus,
  Usage,
} from "@waddle/protocol";
import type { SerializedPlannerState } from "@waddle/planner";

/** What a run starts with; the store fills `lastSeq`, `usage` and the timestamps. */
export interface NewRun {
  id: string;
  agentId: string;
  agentVersion: number;
  query: string;
  status: RunStatus;
  offline?: boolean;
  /** The keys of the toolContext the run starts with (never its values). */
  toolContextKeys?: readonly string[];
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

/** One event to append, with what it changes. */
export interface EventEntry {
  event: RunEvent;
  options?: AppendEventOptions;
}

export interface ListRunsOptions {
  agentId?: string;
  statuses?: readonly RunStatus[];
  limit?: number;
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
  createAgent(options: { spec: AgentSpec; message?: string }): Promise<AgentRecord>;
  /** Saves a new version; `conflict` when `baseVersion` is not the latest, `not_found` for an unknown id. */
  updateAgent(options: {
    id: string;
    spec: AgentSpec;
    baseVersion: number;
    message?: string;
  }): Promise<AgentRecord>;
  /** Deletes an agent and its versions (its runs stay); false when unknown. */
  deleteAgent(id: string): Promise<boolean>;
  listAgentVersions(id: string): Promise<AgentVersionSummary[] | undefined>;
  getAgentVersion(id: string, version: number): Promise<AgentRecord | undefined>;

  createRun(run: NewRun): Promise<RunRecord>;
  getRun(id: string): Promise<RunRecord | undefined>;
  /** Newest first. */
  listRuns(options?: ListRunsOptions): Promise<RunRecord[]>;
  updateRun(id: string, patch: RunPatch): Promise<RunRecord>;

  /**
   * Appends one event; its `seq` must be the run's last seq + 1 (`seq_gap` otherwise). The event, the run
   * patch and the task are written in one transaction, so that a crash never leaves half of them.
   */
  appendEvent(event: RunEvent, options?: AppendEventOptions): Promise<void>;
  /** Appends several events (of one run or more) in one transaction: all are written, or none. */
  appendEvents(entries: readonly EventEntry[]): Promise<void>;
  /** Events with `seq > afterSeq`, in order, at most `limit` (default: all). */
  listEvents(runId: string, options?: { afterSeq?: number; limit?: number }): Promise<RunEvent[]>;

  savePausedState(options: { token: string; runId?: string; state: SerializedPlannerState }): Promise<void>;
  loadPausedState(token: string): Promise<SerializedPlannerState | undefined>;
  deletePausedState(token: string): Promise<void>;

  listTasks(runId: string): Promise<TaskRecord[]>;

  close(): Promise<void>;
}

export type StoreErrorCode = "conflict" | "not_found" | "seq_gap" | "closed";

/** A store refusal: a stale version, an unknown id, an event out of sequence. */
export class StoreError extends Error {
  constructor(
    readonly code: StoreErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
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
