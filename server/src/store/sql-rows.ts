import type { AgentRecord, AgentSpec, RunOrigin, RunRecord } from "@waddle/protocol";
import type { RunPatch } from "./waddle-store.js";
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
  work: { column: "work", json: true },
  // Not a value: the lease's end, from now (each store computes it with its own clock).
  leaseMs: { column: "lease_until", json: false },
};

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
  });
}
