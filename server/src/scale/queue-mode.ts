import { createAdapter } from "@socket.io/redis-adapter";
import type { Server } from "socket.io";
import type { PlannerFactory } from "../runs/planner-factory.js";
import { RunEventHub } from "../runs/run-event-hub.js";
import { RunExecutor, type TaskHostSource } from "../runs/run-executor.js";
import type { RunObserver } from "../runs/run-observer.js";
import { createInstanceName, RunService, type RunTraceFactory, type SpecCheck } from "../runs/run-service.js";
import type { SecretRedactor } from "../secrets/secret-redactor.js";
import type { Logger } from "../shared/logger.js";
import type { WaddleStore } from "../store/waddle-store.js";
import { BullmqRunQueue } from "./bullmq-run-queue.js";
import { createClusterBridge } from "./cluster-bridge.js";
import { RedisConnections } from "./redis-connections.js";
import { RunEventSequencer } from "./run-event-sequencer.js";
import { RunQueue } from "./run-queue.js";
import { RunSweeper } from "./run-sweeper.js";

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
  checkSpec?: SpecCheck;
  /** Sessions: the task host of a turn's run. */
  taskHosts?: TaskHostSource;
  /** Sees every event this instance records (traces, metrics). */
  observer?: RunObserver;
  /** See `RunServiceOptions.createRunTrace`. */
  createRunTrace?: RunTraceFactory;
  /** See `RunServiceOptions.getStartedBy`. */
  getStartedBy?: () => string | undefined;
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
  /** The run service over the BullMQ queue. */
  readonly runs: RunService;
  readonly owner = createInstanceName();
  private readonly redis: RedisConnections;
  private readonly queue: RunQueue;
  private readonly runQueue: BullmqRunQueue;
  private readonly sweeper: RunSweeper | undefined;
  private sequencer: RunEventSequencer | undefined;
  private bridge: ReturnType<typeof createClusterBridge> | undefined;

  constructor(private readonly options: QueueModeOptions) {
    const { store, logger, leaseMs, redactor } = options;
    const parts = {
      store,
      hub: this.localHub,
      redactor,
      logger,
      ...(options.observer ? { observer: options.observer } : {}),
    };
    this.redis = new RedisConnections(options.redisUrl, logger);
    this.queue = new RunQueue(this.redis.create("queue"), logger);
    const worker = options.role !== "api";
    if (worker) {
      this.sweeper = new RunSweeper({
        store,
        queue: this.queue,
        intervalMs: Math.max(200, Math.min(2_000, Math.floor(leaseMs / 4))),
        logger,
      });
    }
    this.runQueue = new BullmqRunQueue({
      queue: this.queue,
      ...(worker
        ? {
            executor: new RunExecutor({
              ...parts,
              createPlanner: options.createPlanner,
              owner: this.owner,
              leaseMs,
              checkpoints: true,
              ...(options.taskHosts ? { taskHosts: options.taskHosts } : {}),
            }),
            connection: this.redis.create("worker", { blocking: true }),
          }
        : {}),
      ...(this.sweeper ? { sweeper: this.sweeper } : {}),
      concurrency: options.maxConcurrentRuns,
      leaseMs,
      logger,
      wakeCancel: (runId) => (this.bridge ? this.bridge.wakeCancel(runId) : this.runQueue.cancelHere(runId)),
    });
    this.runs = new RunService({
      ...parts,
      createPlanner: options.createPlanner,
      queue: this.runQueue,
      owner: this.owner,
      leaseMs,
      ...(options.checkSpec ? { checkSpec: options.checkSpec } : {}),
      ...(options.createRunTrace ? { createRunTrace: options.createRunTrace } : {}),
      ...(options.getStartedBy ? { getStartedBy: options.getStartedBy } : {}),
    });
  }

  /** Runs waiting for a worker, and the workers listening, as BullMQ counts them (within a second). */
  async getQueueStats(): Promise<{ waiting: number; workers: number } | undefined> {
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        Promise.all([
          this.queue.queue.getJobCountByTypes("waiting", "prioritized", "delayed"),
          this.queue.queue.getWorkersCount(),
        ]).then(([waiting, workers]) => ({ waiting, workers })),
        new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), 1_000))),
      ]);
    } catch {
      return undefined;
    } finally {
      clearTimeout(timer);
    }
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
      onCancel: (runId) => this.runQueue.cancelHere(runId),
    });
    sequencer.start();
    this.sweeper?.start();
    void this.sweeper?.sweep();
    return { onFollow: (runId, lastSeq) => sequencer.noteDelivered(runId, lastSeq) };
  }

  /** A Redis connection of this instance's own (closed with it), e.g. for the shared rate-limit buckets. */
  createRedisConnection(name: string): ReturnType<RedisConnections["create"]> {
    return this.redis.create(name);
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
  async close(): Promise<void> {
    await this.runs.close();
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
