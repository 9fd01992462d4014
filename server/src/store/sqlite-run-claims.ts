import type Database from "better-sqlite3";
import type { RunRecord, RunStatus } from "@waddle/protocol";
import { patchSqliteRun, type Sql } from "./sqlite-run-writes.js";
import type { RunClaim, RunPatch, RunWork } from "./waddle-store.js";
import { writeTransaction } from "./sqlite-write-transaction.js";

/**
 * Claims on runs in the SQLite store: each one conditional write on the run's row (or one transaction),
 * so that start, resume and cancel decide as they do on PostgreSQL; leases on this process's clock.
 */
export class SqliteRunClaims {
  constructor(
    private readonly db: Database.Database,
    private readonly sql: Sql,
    private readonly getRun: (id: string) => Promise<RunRecord | undefined>,
  ) {}

  async claimRun(options: {
    runId: string;
    owner: string;
    leaseMs: number;
    statuses: readonly RunStatus[];
  }): Promise<RunClaim | undefined> {
    const now = Date.now();
    const row = this.sql(
      `UPDATE runs SET epoch = epoch + 1, owner = ?, lease_until = ?
         WHERE id = ? AND status IN (SELECT value FROM json_each(?))
           AND (owner IS NULL OR lease_until IS NULL OR lease_until <= ?)
         RETURNING epoch, status, cancel_requested, work`,
    ).get(options.owner, now + options.leaseMs, options.runId, JSON.stringify(options.statuses), now) as
      { epoch: number; status: RunStatus; cancel_requested: number; work: string | null } | undefined;
    if (!row) return undefined;
    return {
      runId: options.runId,
      owner: options.owner,
      epoch: row.epoch,
      status: row.status,
      cancelRequested: row.cancel_requested === 1,
      ...(row.work === null ? {} : { work: JSON.parse(row.work) as RunWork }),
    };
  }

  async renewClaim(claim: RunClaim, leaseMs: number): Promise<{ held: boolean; cancelRequested: boolean }> {
    const row = this.sql(
      "UPDATE runs SET lease_until = ? WHERE id = ? AND epoch = ? RETURNING cancel_requested",
    ).get(Date.now() + leaseMs, claim.runId, claim.epoch) as { cancel_requested: number } | undefined;
    return { held: row !== undefined, cancelRequested: row?.cancel_requested === 1 };
  }

  async releaseClaim(claim: RunClaim): Promise<void> {
    this.sql("UPDATE runs SET owner = NULL, lease_until = NULL WHERE id = ? AND epoch = ?").run(
      claim.runId,
      claim.epoch,
    );
  }

  async listUnclaimedRuns(limit = 100): Promise<{ runId: string; epoch: number; status: RunStatus }[]> {
    const rows = this.sql(
      `SELECT id, epoch, status FROM runs WHERE status IN ('queued', 'running')
         AND (lease_until IS NULL OR lease_until <= ?) ORDER BY position LIMIT ?`,
    ).all(Date.now(), limit) as { id: string; epoch: number; status: RunStatus }[];
    return rows.map((row) => ({ runId: row.id, epoch: row.epoch, status: row.status }));
  }

  async queueResume(options: {
    runId: string;
    resumeToken: string;
    work: RunWork;
    leaseMs: number;
    patch?: RunPatch;
  }): Promise<{ run: RunRecord; epoch: number } | undefined> {
    const now = Date.now();
    const taken = writeTransaction(this.db, () => {
      const row = this.sql(
        `SELECT pause, epoch FROM runs WHERE id = ? AND status = 'paused'
           AND (owner IS NULL OR lease_until IS NULL OR lease_until <= ?)`,
      ).get(options.runId, now) as { pause: string | null; epoch: number } | undefined;
      const pause = row?.pause ? (JSON.parse(row.pause) as { resumeToken?: string }) : undefined;
      if (!row || pause?.resumeToken !== options.resumeToken) return undefined;
      patchSqliteRun(this.sql, options.runId, {
        ...options.patch,
        status: "queued",
        work: options.work,
        leaseMs: options.leaseMs,
      });
      return row.epoch;
    })();
    return taken === undefined ? undefined : { run: (await this.getRun(options.runId))!, epoch: taken };
  }

  async requestCancel(runId: string): Promise<void> {
    this.sql("UPDATE runs SET cancel_requested = 1 WHERE id = ?").run(runId);
  }
}
