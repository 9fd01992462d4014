import type { AgentSpec, RunRecord } from "@waddle/protocol";
import { createAdapter } from "@socket.io/redis-adapter";
import type { Server } from "socket.io";
import type { PlannerFactory } from "../runs/planner-factory.js";
import { RunEventHub } from "../runs/run-event-hub.js";
import type { RunService } from "../runs/run-service.js";
import type { SecretRedactor } from "../secrets/secret-redactor.js";
import type { Logger } from "../shared/logger.js";
import type { WaddleStore } from "../store/waddle-store.js";
import { createClusterBridge } from "./cluster-bridge.js";
import { createInstanceName, QueuedRunService } from "./queued-run-service.js";
import { RedisConnections } from "./redis-connections.js";
import { RunEventSequencer } from "./run-event-sequencer.js";
import { RunQueue } from "./run-queue.js";
import { RunSweeper } from "./run-sweeper.js";
import { RunWorker } from "./run-worker.js";

/** `all` serves the API and runs runs; `api` only serves; `worker` only runs. */
export type QueueRole = "all" | "api" | "worker";

export interface QueueModeOptions {
  redisUrl: string;
  role: QueueRole;
  store: WaddleStore;
  createPlanner: PlannerFactory;
  redactor: SecretRedactor;
  logger: Logger;
  /** Runs executing at once on this instance's worker. */
  maxConcurrentRuns: number;
  /** How long a claim on a run lasts unless renewed (`WADDLE_RUN_LEASE_MS`). */
  leaseMs: number;
  checkSpec?: (spec: AgentSpec) => void;
}

/** The runs surface of a server, whatever its mode (RunManager has it). */
export interface ServerRuns extends RunService {
  readonly activeCount: number;
  readonly queuedCount: number;
  recoverRuns(): Promise<string[]>;
  close(): Promise<void>;
}

/**
 * Queue mode (`WADDLE_REDIS_URL`): runs go through a BullMQ queue to the workers of every instance, claims
 * and fencing in the store decide who runs what, and instances hear each other's live events through
 * socket.io's Redis adapter. PostgreSQL holds every run, event and checkpoint; Redis only carries jobs and
 * wake-ups, so that a Redis that restarts empty loses nothing (sweepers queue again what waits).
 */
export class QueueMode {
  /** Where this instance's runs and API publish (the bridge forwards it to the others). */
  readonly localHub = new RunEventHub();
  /** What this instance's readers follow: every instance's runs, in order. */
  readonly hub = new RunEventHub();
  readonly runs: ServerRuns;
  readonly owner = createInstanceName();
  private readonly redis: RedisConnections;
  private readonly queue: RunQueue;
  private readonly worker: RunWorker | undefined;
  private readonly sweeper: RunSweeper | undefined;
  private sequencer: RunEventSequencer | undefined;
  private bridge: ReturnType<typeof createClusterBridge> | undefined;

  constructor(private readonly options: QueueModeOptions) {
    const { store, logger, leaseMs } = options;
    this.redis = new RedisConnections(options.redisUrl, logger);
    this.queue = new RunQueue(this.redis.create("queue"), logger);
    if (options.role !== "api") {
      this.worker = new RunWorker({
        connection: this.redis.create("worker", { blocking: true }),
        store,
        hub: this.localHub,
        createPlanner: options.createPlanner,
        redactor: options.redactor,
        logger,
        owner: this.owner,
        concurrency: options.maxConcurrentRuns,
        leaseMs,
      });
      this.sweeper = new RunSweeper({
        store,
        queue: this.queue,
        intervalMs: Math.max(200, Math.min(2_000, Math.floor(leaseMs / 4))),
        logger,
      });
    }
    const service = new QueuedRunService({
      store,
      queue: this.queue,
      hub: this.localHub,
      redactor: options.redactor,
      logger,
      owner: this.owner,
      leaseMs,
      wakeCancel: (runId) => (this.bridge ? this.bridge.wakeCancel(runId) : this.worker?.cancel(runId)),
      ...(options.checkSpec ? { checkSpec: options.checkSpec } : {}),
    });
    const worker = this.worker;
    this.runs = {
      startRun: (request, startOptions) => service.startRun(request, startOptions),
      cancelRun: (runId): Promise<RunRecord> => service.cancelRun(runId),
      resumeRun: (runId, request) => service.resumeRun(runId, request),
      get activeCount() {
        return worker?.activeCount ?? 0;
      },
      queuedCount: 0,
      // Runs whose worker stopped are found by sweepers and continued, never marked interrupted.
      recoverRuns: async () => [],
      close: () => this.closeWorker(),
    };
  }

  /**
   * Joins socket.io to the other instances (the Redis adapter) and starts the bridge, the sequencer, the
   * worker's sweeper. `onFollow` is the socket gateway's: what a socket got from the store.
   */
  attach(io: Server): { onFollow: (runId: string, lastSeq: number) => void } {
    io.adapter(createAdapter(this.redis.create("adapter-pub"), this.redis.create("adapter-sub")));
    const sequencer = new RunEventSequencer({
      store: this.options.store,
      hub: this.hub,
      logger: this.options.logger,
      getWatchedRunIds: () => [...getWatchedRunIds(io), ...this.hub.getFollowedRunIds()],
      pollMs: 1_000,
    });
    this.sequencer = sequencer;
    this.bridge = createClusterBridge({
      io,
      localHub: this.localHub,
      hub: this.hub,
      sequencer,
      onCancel: (runId) => this.worker?.cancel(runId),
    });
    sequencer.start();
    this.sweeper?.start();
    void this.sweeper?.sweep();
    return { onFollow: (runId, lastSeq) => sequencer.noteDelivered(runId, lastSeq) };
  }

  /** `up` or `down` for Redis, within a second. */
  async getRedisHealth(): Promise<"up" | "down"> {
    try {
      await this.redis.ping();
      return "up";
    } catch {
      return "down";
    }
  }

  /** Stops the worker first (its runs are handed over to other workers), then everything else. */
  private async closeWorker(): Promise<void> {
    this.sweeper?.stop();
    await this.worker?.close();
  }

  async close(): Promise<void> {
    await this.closeWorker();
    this.sequencer?.stop();
    this.bridge?.close();
    await this.queue.close().catch(() => undefined);
    await this.redis.close();
  }
}

/** Runs some socket on this instance follows (their rooms, `run:<id>`). */
function* getWatchedRunIds(io: Server): Iterable<string> {
  for (const room of io.of("/").adapter.rooms.keys()) if (room.startsWith("run:")) yield room.slice(4);
}
