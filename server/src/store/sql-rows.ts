import type {
  AgentRecord,
  AgentSpec,
  AgentVersionSummary,
  RunEvent,
  RunDecisions,
  RunOrigin,
  RunRecord,
} from "@waddle/protocol";
import type { SerializedPlannerState } from "@waddle/planner";
import {
  EMPTY_USAGE,
  type NewRun,
  type RunCheckpoint,
  type RunPatch,
  type TaskRecord,
} from "./waddle-store.js";
import { withRunSummary } from "./with-run-summary.js";

// Rows of the two SQL stores (SQLite and PostgreSQL) and the records they hold: JSON columns are text,
// flags are 0/1 in SQLite and booleans in PostgreSQL.

export interface RunRow {
  id: string;
  agent_id: string;
  agent_version: number;
  status: string;
  query: string;
  result: string | null;
  usage: string;
  pause: string | null;
  error: string | null;
  offline: number | boolean;
  last_seq: number;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  tool_context_keys: string | null;
  origin?: string | null;
  /** Migration 8: 1 (SQLite) or true (PostgreSQL) when the person chose the offline model. */
  offline_chosen?: number | boolean;
  /** Migration 17 (SQLite), 14 (PostgreSQL): the run's `decisions` as JSON, null while none was made. */
  decisions?: string | null;
}

export interface VersionRow {
  agent_id: string;
  version: number;
  name: string;
  message: string | null;
  spec: string;
  created_at: string;
  first_created_at?: string;
  /** 1 (SQLite) or true (PostgreSQL) for a version saved with errors. */
  invalid?: number | boolean;
}

export const RUN_COLUMNS: Readonly<Record<keyof RunPatch, { column: string; json: boolean }>> = {
  status: { column: "status", json: false },
  result: { column: "result", json: true },
  usage: { column: "usage", json: true },
  startedAt: { column: "started_at", json: false },
  finishedAt: { column: "finished_at", json: false },
  pause: { column: "pause", json: true },
  error: { column: "error", json: true },
  offline: { column: "offline", json: false },
  toolContextKeys: { column: "tool_context_keys", json: true },
  decisions: { column: "decisions", json: true },
  work: { column: "work", json: true },
  // Not a value: the lease's end, from now (each store computes it with its own clock).
  leaseMs: { column: "lease_until", json: false },
};

/**
 * Agent version rows with their agent's first `created_at` (`first_created_at`), for `toAgentRecord`;
 * a `WHERE` picks which.
 */
export const AGENT_VERSION_ROWS =
  "SELECT v.*, a.created_at AS first_created_at FROM agents a JOIN agent_versions v ON v.agent_id = a.id";

/** An agent version row as an `AgentRecord`. */
export function toAgentRecord(row: VersionRow): AgentRecord {
  return {
    id: row.agent_id,
    version: row.version,
    spec: JSON.parse(row.spec) as AgentSpec,
    updatedAt: row.created_at,
    ...(row.first_created_at ? { createdAt: row.first_created_at } : {}),
    ...(row.invalid ? { invalid: true } : {}),
  };
}

/** A run row as a `RunRecord`, with its summary (`withRunSummary`). */
export function toRunRecord(row: RunRow): RunRecord {
  const parse = (text: string | null): unknown => (text === null ? null : JSON.parse(text));
  return withRunSummary({
    id: row.id,
    agentId: row.agent_id,
    agentVersion: row.agent_version,
    status: row.status as RunRecord["status"],
    query: row.query,
    result: parse(row.result) as RunRecord["result"],
    usage: parse(row.usage) as RunRecord["usage"],
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    createdAt: row.created_at,
    lastSeq: row.last_seq,
    pause: parse(row.pause) as RunRecord["pause"],
    error: parse(row.error) as RunRecord["error"],
    offline: Boolean(row.offline),
    ...(row.offline_chosen ? { offlineChosen: true } : {}),
    ...(row.tool_context_keys === null
      ? {}
      : { toolContextKeys: JSON.parse(row.tool_context_keys) as string[] }),
    ...(row.origin ? (JSON.parse(row.origin) as RunOrigin) : {}),
    ...(row.decisions ? { decisions: JSON.parse(row.decisions) as RunDecisions } : {}),
  });
}

export function toAgentVersionSummary(row: VersionRow): AgentVersionSummary {
  return {
    version: row.version,
    createdAt: row.created_at,
    name: row.name,
    ...(row.message ? { message: row.message } : {}),
    ...(row.invalid ? { invalid: true } : {}),
  };
}

export function toRunEvent(row: { event: string }): RunEvent {
  return JSON.parse(row.event) as RunEvent;
}

export function toTaskRecord(row: { record: string }): TaskRecord {
  return JSON.parse(row.record) as TaskRecord;
}

export function toPausedState(row: { state: string }): SerializedPlannerState {
  return JSON.parse(row.state) as SerializedPlannerState;
}

export function toRunCheckpoint(runId: string, row: { seq: number; state: string }): RunCheckpoint {
  return { runId, seq: row.seq, state: JSON.parse(row.state) as Record<string, unknown> };
}

// Rows to write, column by column: JSON as text, flags as booleans (SQLite binds them as 0/1). Each
// store adds what its own SQL computes (a lease on its clock, a list position).

export type SqlValue = string | number | boolean | null;
export type SqlRow = Readonly<Record<string, SqlValue>>;

/** The column list, placeholders and parameters of an `INSERT` of `row`; `placeholder(i)` counts from 1. */
export function getInsertParts(
  row: SqlRow,
  placeholder: (index: number) => string,
): { columns: string; values: string; params: SqlValue[] } {
  const columns = Object.keys(row);
  return {
    columns: columns.join(", "),
    values: columns.map((_, index) => placeholder(index + 1)).join(", "),
    params: Object.values(row),
  };
}

/** A new run's row, but for its lease. */
export function getNewRunRow(run: NewRun, now: string): SqlRow {
  return {
    id: run.id,
    agent_id: run.agentId,
    agent_version: run.agentVersion,
    status: run.status,
    query: run.query,
    usage: JSON.stringify(EMPTY_USAGE),
    offline: run.offline === true,
    created_at: now,
    tool_context_keys: run.toolContextKeys === undefined ? null : JSON.stringify(run.toolContextKeys),
    work: run.work === undefined ? null : JSON.stringify(run.work),
    origin: run.origin === undefined ? null : JSON.stringify(run.origin),
    session_id: run.origin?.sessionId ?? null,
    offline_chosen: run.offlineChosen === true,
  };
}

/** An agent version being saved (`now` is when). */
export interface NewVersion {
  id: string;
  version: number;
  spec: AgentSpec;
  message: string | undefined;
  now: string;
  invalid: boolean | undefined;
}

export function getVersionRow(version: NewVersion): SqlRow {
  return {
    agent_id: version.id,
    version: version.version,
    name: version.spec.name,
    message: version.message ?? null,
    spec: JSON.stringify(version.spec),
    created_at: version.now,
    invalid: version.invalid === true,
  };
}

/** The record a save returns: the new version, with its agent's first `createdAt`. */
export function getSavedAgentRecord(version: NewVersion, createdAt: string): AgentRecord {
  return {
    id: version.id,
    version: version.version,
    spec: version.spec,
    updatedAt: version.now,
    createdAt,
    ...(version.invalid ? { invalid: true } : {}),
  };
}

export function getEventRow(event: RunEvent): { run_id: string; seq: number; type: string; event: string } {
  return { run_id: event.runId, seq: event.seq, type: event.type, event: JSON.stringify(event) };
}

export function getTaskRow(task: TaskRecord): SqlRow {
  return { run_id: task.runId, task_id: task.taskId, record: JSON.stringify(task) };
}

export function getCheckpointRow(checkpoint: RunCheckpoint): SqlRow {
  return { run_id: checkpoint.runId, seq: checkpoint.seq, state: JSON.stringify(checkpoint.state) };
}

export function getPausedStateRow(options: {
  token: string;
  runId?: string;
  state: SerializedPlannerState;
  now: string;
}): SqlRow {
  return {
    token: options.token,
    run_id: options.runId ?? null,
    state: JSON.stringify(options.state),
    created_at: options.now,
  };
}
