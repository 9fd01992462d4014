import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/** What `PRAGMA wal_checkpoint` answered: busy flag, frames in the WAL, frames copied into the database. */
export interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
  /** True when the WAL had grown past `restartFrames` and a RESTART checkpoint followed the PASSIVE one. */
  restarted: boolean;
}

export interface WalCheckpointerOptions {
  filename: string;
  /** Time between PASSIVE checkpoints (default 1,000 ms). */
  intervalMs?: number;
  /**
   * WAL frames after which a RESTART checkpoint follows, so that the next write starts the WAL over (default
   * 4,096 frames, 16 MB of 4 KB pages). A steady stream of commits can keep PASSIVE checkpoints from ever
   * catching up at a moment with no writer; RESTART holds writers back for one checkpoint instead.
   */
  restartFrames?: number;
  /** The worker failed or exited on its own: the caller should checkpoint some other way. */
  onFailure: (error: Error) => void;
}

export const DEFAULT_CHECKPOINT_INTERVAL_MS = 1_000;
export const DEFAULT_RESTART_FRAMES = 4_096;
const MAX_PASSIVE_ROUNDS = 8;

// Plain CommonJS, evaluated as the worker's script: no TypeScript loader in the worker (it starts from the
// server's sources, its build and vitest alike), and the driver path is passed in.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driverPath);
const db = new Database(workerData.filename, { fileMustExist: true });
db.pragma("synchronous = NORMAL");
db.pragma("busy_timeout = 200");
const checkpoint = () => {
  // Again while commits arrived during the last round: the next writer starts the WAL over only if every
  // frame was copied. Each round copies what came in during the one before, so they get short fast.
  let passive = { busy: 0, log: -1, checkpointed: -1 };
  for (let round = 0; round < workerData.maxRounds; round += 1) {
    const previous = passive.log;
    [passive] = db.pragma("wal_checkpoint(PASSIVE)");
    if (passive.busy !== 0 || (passive.log === previous && passive.checkpointed === passive.log)) break;
  }
  if (passive.log < workerData.restartFrames) return { ...passive, restarted: false };
  const [restart] = db.pragma("wal_checkpoint(RESTART)");
  return { ...restart, restarted: true };
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on("message", (message) => {
  if (message.type === "checkpoint") parentPort.postMessage({ id: message.id, result: checkpoint() });
  if (message.type === "stop") {
    clearInterval(timer);
    db.close();
    parentPort.close();
  }
});
`;

/**
 * Runs SQLite's WAL checkpoints off the main thread: a worker with its own connection to `filename` copies
 * committed WAL frames into the database with PASSIVE checkpoints on a timer, so no commit on the event path
 * pays for a checkpoint (and its fsync). The main connection turns `wal_autocheckpoint` off while this runs.
 * Durability is unchanged: a checkpoint only moves committed data, and the WAL survives a crash.
 */
export class WalCheckpointer {
  readonly #worker: Worker;
  readonly #pending = new Map<number, (result: CheckpointResult) => void>();
  #nextId = 0;
  #stopping = false;
  readonly #exited: Promise<void>;

  constructor(options: WalCheckpointerOptions) {
    const driverPath = createRequire(import.meta.url).resolve("better-sqlite3");
    this.#worker = new Worker(WORKER_SOURCE, {
      eval: true,
      execArgv: [],
      workerData: {
        driverPath,
        filename: options.filename,
        intervalMs: options.intervalMs ?? DEFAULT_CHECKPOINT_INTERVAL_MS,
        restartFrames: options.restartFrames ?? DEFAULT_RESTART_FRAMES,
        maxRounds: MAX_PASSIVE_ROUNDS,
      },
    });
    // Never what keeps the process alive: a store someone forgot to close must not hang its exit.
    this.#worker.unref();
    this.#worker.on("message", (message: { id: number; result: CheckpointResult }) => {
      this.#pending.get(message.id)?.(message.result);
      this.#pending.delete(message.id);
    });
    let failure: Error | undefined;
    this.#worker.on("error", (error) => (failure = error));
    this.#exited = new Promise((resolve) => {
      this.#worker.once("exit", (code) => {
        if (!this.#stopping)
          options.onFailure(failure ?? new Error(`the checkpoint worker exited with code ${code}`));
        resolve();
      });
    });
  }

  /** Checkpoints now, in the worker (for tests and tools); rejects once the worker is gone. */
  checkpoint(): Promise<CheckpointResult> {
    if (this.#stopping) return Promise.reject(new Error("The checkpointer is stopped."));
    const id = (this.#nextId += 1);
    return new Promise((resolve, reject) => {
      this.#pending.set(id, resolve);
      void this.#exited.then(() => {
        if (this.#pending.delete(id)) reject(new Error("The checkpoint worker exited."));
      });
      this.#worker.postMessage({ type: "checkpoint", id });
    });
  }

  /** Stops the timer and closes the worker's connection; resolves once the worker has exited. */
  async stop(): Promise<void> {
    if (!this.#stopping) {
      this.#stopping = true;
      // Held until the worker has closed its connection, or the process could end before the main one does.
      this.#worker.ref();
      this.#worker.postMessage({ type: "stop" });
    }
    await this.#exited;
  }
}
