import type { RunRecord, RunStatus } from "@waddle/protocol";
import type { PgQuery } from "./request-keys/pg-request-key-store.js";
import { getPgRunSets } from "./pg-run-patch.js";
import { toRunRecord, type RunRow } from "./sql-rows.js";
import type { RunClaim, RunPatch, RunWork } from "./waddle-store.js";

/**
 * Claims on runs in the PostgreSQL store (queue mode): each a single conditional `UPDATE` on the run's
 * row, so that of several instances one wins; leases are measured on PostgreSQL's clock.
 */
export class PgRunClaims {
  constructor(private readonly query: PgQuery) {}

  async claimRun(options: {
    runId: string;
    owner: string;
    leaseMs: number;
    statuses: readonly RunStatus[];
  }): Promise<RunClaim | undefined> {
    const { rows } = await this.query(
      `UPDATE runs SET epoch = epoch + 1, owner = $2,
           lease_until = clock_timestamp() + $3 * interval '1 millisecond'
         WHERE id = $1 AND status = ANY($4)
           AND (owner IS NULL OR lease_until IS NULL OR lease_until <= clock_timestamp())
         RETURNING epoch, status, cancel_requested, work`,
      [options.runId, options.owner, options.leaseMs, [...options.statuses]],
    );
    const row = rows[0] as
      { epoch: number; status: RunStatus; cancel_requested: boolean; work: string | null } | undefined;
    if (!row) return undefined;
    return {
      runId: options.runId,
      owner: options.owner,
      epoch: row.epoch,
      status: row.status,
      cancelRequested: row.cancel_requested,
      ...(row.work === null ? {} : { work: JSON.parse(row.work) as RunWork }),
    };
  }

  async renewClaim(claim: RunClaim, leaseMs: number): Promise<{ held: boolean; cancelRequested: boolean }> {
    const { rows } = await this.query(
      `UPDATE runs SET lease_until = clock_timestamp() + $3 * interval '1 millisecond'
         WHERE id = $1 AND epoch = $2 RETURNING cancel_requested`,
      [claim.runId, claim.epoch, leaseMs],
    );
    return { held: rows.length > 0, cancelRequested: rows[0]?.cancel_requested === true };
  }

  async releaseClaim(claim: RunClaim): Promise<void> {
    await this.query(
      "UPDATE runs SET owner = NULL, lease_until = NULL WHERE id = $1 AND epoch = $2",
      [claim.runId, claim.epoch],
      "write",
    );
  }

  async listUnclaimedRuns(limit = 100): Promise<{ runId: string; epoch: number; status: RunStatus }[]> {
    const { rows } = await this.query(
      `SELECT id, epoch, status FROM runs WHERE status IN ('queued', 'running')
         AND (lease_until IS NULL OR lease_until <= clock_timestamp()) ORDER BY position LIMIT $1`,
      [limit],
    );
    return (rows as { id: string; epoch: number; status: RunStatus }[]).map((row) => ({
      runId: row.id,
      epoch: row.epoch,
      status: row.status,
    }));
  }

  async queueResume(options: {
    runId: string;
    resumeToken: string;
    work: RunWork;
    leaseMs: number;
    patch?: RunPatch;
  }): Promise<{ run: RunRecord; epoch: number } | undefined> {
    const patch: RunPatch = {
      ...options.patch,
      status: "queued",
      work: options.work,
      leaseMs: options.leaseMs,
    };
    const { sets, params } = getPgRunSets(patch, 3);
    const { rows } = await this.query(
      `UPDATE runs SET ${sets.join(", ")}
         WHERE id = $1 AND status = 'paused' AND pause::json->>'resumeToken' = $2
           AND (owner IS NULL OR lease_until IS NULL OR lease_until <= clock_timestamp())
         RETURNING *`,
      [options.runId, options.resumeToken, ...params],
    );
    const row = rows[0] as (RunRow & { epoch: number }) | undefined;
    return row ? { run: toRunRecord(row), epoch: row.epoch } : undefined;
  }

  async requestCancel(runId: string): Promise<void> {
    await this.query("UPDATE runs SET cancel_requested = true WHERE id = $1", [runId]);
  }
}
