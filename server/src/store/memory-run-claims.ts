import type { RunRecord, RunStatus } from "@waddle/protocol";
import { fencedError, runNotFoundError } from "./store-errors.js";
import { withRunSummary } from "./with-run-summary.js";
import type { NewRun, RunClaim, RunPatch, RunWork } from "./waddle-store.js";

/** A run's queue-mode fields, which `RunRecord` does not show. */
interface RunLease {
  epoch: number;
  owner?: string;
  leaseUntil?: number;
  cancelRequested: boolean;
  work?: RunWork;
}

/**
 * The in-memory store's claims on runs: each run's epoch, owner, lease, cancel flag and work, kept beside
 * its record, and the conditional writes on them (claim, renew, release, resume, cancel, fencing).
 */
export class MemoryRunClaims {
  private readonly leases = new Map<string, RunLease>();

  constructor(
    private readonly runs: ReadonlyMap<string, RunRecord>,
    /** The store's patch of a run's record and its queue-mode fields (`applyLeasePatch`). */
    private readonly applyPatch: (run: RunRecord, patch: RunPatch) => void,
  ) {}

  /** A new run's lease: epoch 0, its work, and its queue lease when it has one. */
  create(run: NewRun): void {
    this.leases.set(run.id, {
      epoch: 0,
      cancelRequested: false,
      ...(run.work ? { work: structuredClone(run.work) } : {}),
      ...(run.leaseMs === undefined ? {} : { leaseUntil: Date.now() + run.leaseMs }),
    });
  }

  /** The queue-mode fields of a patch (`work`, `leaseMs`), which the record does not show. */
  applyLeasePatch(runId: string, patch: Pick<RunPatch, "work" | "leaseMs">): void {
    const lease = this.leases.get(runId);
    const { work, leaseMs } = patch;
    if (lease && work !== undefined) {
      if (work === null) delete lease.work;
      else lease.work = structuredClone(work);
    }
    if (lease && leaseMs !== undefined) {
      if (leaseMs === null) delete lease.leaseUntil;
      else lease.leaseUntil = Date.now() + leaseMs;
    }
  }

  assertFence(runId: string, epoch: number): void {
    const lease = this.leases.get(runId);
    if (!lease) throw runNotFoundError(runId);
    if (lease.epoch !== epoch) throw fencedError(runId, epoch, lease.epoch);
  }

  claimRun(options: {
    runId: string;
    owner: string;
    leaseMs: number;
    statuses: readonly RunStatus[];
  }): RunClaim | undefined {
    const run = this.runs.get(options.runId);
    const lease = this.leases.get(options.runId);
    if (!run || !lease || !options.statuses.includes(run.status) || isHeld(lease)) return undefined;
    lease.epoch += 1;
    lease.owner = options.owner;
    lease.leaseUntil = Date.now() + options.leaseMs;
    return {
      runId: run.id,
      owner: options.owner,
      epoch: lease.epoch,
      status: run.status,
      cancelRequested: lease.cancelRequested,
      ...(lease.work ? { work: structuredClone(lease.work) } : {}),
    };
  }

  renewClaim(claim: RunClaim, leaseMs: number): { held: boolean; cancelRequested: boolean } {
    const lease = this.leases.get(claim.runId);
    if (!lease || lease.epoch !== claim.epoch) return { held: false, cancelRequested: false };
    lease.leaseUntil = Date.now() + leaseMs;
    return { held: true, cancelRequested: lease.cancelRequested };
  }

  releaseClaim(claim: RunClaim): void {
    const lease = this.leases.get(claim.runId);
    if (!lease || lease.epoch !== claim.epoch) return;
    delete lease.owner;
    delete lease.leaseUntil;
  }

  listUnclaimedRuns(limit = 100): { runId: string; epoch: number; status: RunStatus }[] {
    const found: { runId: string; epoch: number; status: RunStatus }[] = [];
    for (const run of this.runs.values()) {
      const lease = this.leases.get(run.id)!;
      if ((run.status === "queued" || run.status === "running") && !isLive(lease))
        found.push({ runId: run.id, epoch: lease.epoch, status: run.status });
      if (found.length >= limit) break;
    }
    return found;
  }

  queueResume(options: {
    runId: string;
    resumeToken: string;
    work: RunWork;
    leaseMs: number;
    patch?: RunPatch;
  }): { run: RunRecord; epoch: number } | undefined {
    const run = this.runs.get(options.runId);
    const lease = this.leases.get(options.runId);
    if (!run || !lease || run.status !== "paused" || isHeld(lease)) return undefined;
    if (run.pause?.resumeToken !== options.resumeToken) return undefined;
    this.applyPatch(run, {
      ...options.patch,
      status: "queued",
      work: options.work,
      leaseMs: options.leaseMs,
    });
    return { run: withRunSummary(structuredClone(run)), epoch: lease.epoch };
  }

  requestCancel(runId: string): void {
    const lease = this.leases.get(runId);
    if (lease) lease.cancelRequested = true;
  }
}

/** A lease not yet expired: a worker's claim, or the time a queued run's job has to be taken. */
function isLive(lease: RunLease): boolean {
  return lease.leaseUntil !== undefined && lease.leaseUntil > Date.now();
}

/** A live lease that a claim holds (a queued run's lease waits for a claim, it does not block one). */
function isHeld(lease: RunLease): boolean {
  return lease.owner !== undefined && isLive(lease);
}
