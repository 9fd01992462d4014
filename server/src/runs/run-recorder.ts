import {
  TERMINAL_RUN_STATUSES,
  type PendingPause,
  type RunDecisions,
  type RunEvent,
  type RunStatus,
  type Usage,
} from "@waddle/protocol";
import type { Logger } from "../shared/logger.js";
import type { SecretRedactor } from "../secrets/secret-redactor.js";
import { StreamChunkRedactor } from "../secrets/stream-chunk-redactor.js";
import type { RunCheckpoint as PlannerCheckpoint } from "@waddle/planner";
import {
  EMPTY_USAGE,
  isStoreError,
  type AppendBatchOptions,
  type EventEntry,
  type RunPatch,
  type WaddleStore,
} from "../store/waddle-store.js";
import type { RunEventHub } from "./run-event-hub.js";
import { RunEventEffects } from "./run-event-effects.js";
import type { ObservedRun, RunObserver } from "./run-observer.js";
import { retryBusyWrite } from "../store/retry-busy-write.js";

interface PendingEvent {
  raw: RunEvent;
  /** Run changes of a server event, besides those its type implies. */
  extra?: RunPatch;
  resolve?: () => void;
  /** Not an event: the planner's checkpoint, stored with the events queued before it. */
  checkpoint?: PlannerCheckpoint;
}

/** A recorder writing under an executor's claim on its run. */
export interface RecorderClaim {
  epoch: number;
  /** Called once when a write is refused because another claim took the run: the run must stop here. */
  onFenced: () => void;
}

/** An event the server writes itself (e.g. `run_failed`); the recorder gives it its seq and step. */
export type ServerEvent = Pick<RunEvent, "type" | "data">;

/**
 * Records one run's events: redacts secrets, numbers them after the stored `seq` (so the stored stream has
 * no gap whatever the emitter says), writes them with the run and task changes they imply in one
 * transaction per batch, and only then publishes them. Writes are chained: stored and published in order.
 */
export class RunRecorder {
  private tail: Promise<void> = Promise.resolve();
  private readonly pending: PendingEvent[] = [];
  private drainQueued = false;
  private lastSeq: number;
  /** Read from the store at the first write when the run already has events (a recorder made later). */
  private lastStep: number | undefined;
  private readonly effects: RunEventEffects;
  private status: RunStatus;
  private sealed = false;
  private fenced = false;
  /** A drain waits for setImmediate (see `checkpointSink`). */
  private deferred = false;
  private readonly streams: StreamChunkRedactor;

  constructor(
    private readonly options: {
      runId: string;
      lastSeq: number;
      usage?: Usage;
      /** The decisions already counted for the run (its record's), which its next `resumed` events add to. */
      decisions?: RunDecisions;
      status: RunStatus;
      store: WaddleStore;
      hub: RunEventHub;
      redactor: SecretRedactor;
      logger: Logger;
      /** Every write names this claim's epoch, and stops for good once refused (fencing). */
      claim?: RecorderClaim;
      /** The planner's checkpoints come (queue mode): every drain waits for its microtasks. */
      checkpoints?: boolean;
      /** Sees each event as it is emitted (traces, metrics), with the run it belongs to. */
      observer?: { observer: RunObserver; run: ObservedRun["record"] };
    },
  ) {
    this.lastSeq = options.lastSeq;
    this.lastStep = options.lastSeq === 0 ? 0 : undefined;
    this.effects = new RunEventEffects(options.usage ?? EMPTY_USAGE, options.decisions);
    this.status = options.status;
    this.streams = new StreamChunkRedactor(options.redactor);
  }

  /** A copy of `value` with the server's and the run's secrets redacted, as its events are. */
  redact<T>(value: T): T {
    return this.options.redactor.redact(value);
  }

  get currentStatus(): RunStatus {
    return this.status;
  }

  get isSealed(): boolean {
    return this.sealed;
  }

  /** The pause the run's last recorded `pause` event set, with when it paused and its due time. */
  get recordedPause(): PendingPause | undefined {
    return this.effects.lastPause;
  }

  /** The planner's event sink: synchronous; events are written in the background, in order, in batches. */
  readonly sink = (event: RunEvent): void => {
    // With checkpoints, every drain waits for the planner's microtasks (see checkpointSink).
    this.push({ raw: event }, this.options.checkpoints === true);
  };

  /**
   * The planner's checkpoint sink: the checkpoint is written in the same transaction as the events queued
   * before it. The drain waits for the planner's synchronous run of microtasks to end (setImmediate), so
   * that a call's `tool_end` and the checkpoint that records its step are never written apart.
   */
  readonly checkpointSink = (checkpoint: PlannerCheckpoint): Promise<void> =>
    // Settles once the batch holding it is written (or refused): the planner waits for that in front of
    // a call with side effects, so a worker killed during the call leaves a checkpoint that says so.
    new Promise((resolve) => this.push({ raw: undefined as unknown as RunEvent, checkpoint, resolve }, true));

  /**
   * Writes nothing more, whatever comes (a worker handing its run over at shutdown: the next worker goes on
   * from the last checkpoint stored, so what was not stored yet is not lost but done again).
   */
  seal(): void {
    this.sealed = true;
  }

  /** False once a write was refused because another worker claimed the run. */
  get isFenced(): boolean {
    return this.fenced;
  }

  /** Appends an event of the server's own (`run_failed`, `run_interrupted`, …) after every queued one. */
  append(event: ServerEvent, patch: RunPatch = {}): Promise<void> {
    return new Promise((resolve) => {
      this.push({
        raw: { ...event, runId: this.options.runId, seq: 0, ts: Date.now() } as RunEvent,
        extra: patch,
        resolve,
      });
    });
  }

  /**
   * Changes the run's row (status, timing, outcome) after every queued event, and publishes the change: a
   * status change as such, any other as a run change.
   */
  patch(patch: RunPatch): Promise<void> {
    return this.enqueue(async () => {
      if (this.sealed) return;
      // An error message may quote a tool context value or arg: it leaves the process like an event.
      const safe = patch.error ? { ...patch, error: this.options.redactor.redact(patch.error) } : patch;
      const { claim } = this.options;
      await this.fence(() =>
        this.options.store.updateRun(this.options.runId, safe, claim ? { fence: claim.epoch } : {}),
      );
      if (patch.status !== undefined && patch.status !== this.status) this.setStatus(patch.status);
      // The same status with a new outcome (a pause's metadata saved after its event): watchers re-read it.
      else this.options.hub.publishRunChange(this.options.runId);
    });
  }

  /** Resolves once everything queued so far is stored and published. */
  flush(): Promise<void> {
    return this.enqueue(async () => undefined);
  }

  private push(item: PendingEvent, defer = false): void {
    this.pending.push(item);
    if (!item.checkpoint && !this.sealed) this.observe(item.raw);
    if (this.drainQueued) return;
    if (defer || this.deferred) {
      if (!this.deferred) setImmediate(() => this.startDrain());
      this.deferred = true;
      return;
    }
    this.startDrain();
  }

  private observe(event: RunEvent): void {
    const watch = this.options.observer;
    if (!watch) return;
    try {
      watch.observer.onEvent(event, { record: watch.run, redact: (value) => this.redact(value) });
    } catch {
      // Observability is never worth a run.
    }
  }

  private startDrain(): void {
    this.deferred = false;
    if (this.drainQueued || this.pending.length === 0) return;
    this.drainQueued = true;
    void this.enqueue(() => this.drain());
  }

  /** Runs a write under the claim: a `fenced` refusal seals the recorder and tells its owner once. */
  private async fence<T>(write: () => Promise<T>): Promise<T | undefined> {
    try {
      // A lock held past the busy timeout costs a delay, not the run's events.
      return await retryBusyWrite(write, {
        onRetry: (error, attempt) =>
          this.options.logger.warn("the store was busy: writing again", {
            runId: this.options.runId,
            attempt,
            error: String(error),
          }),
      });
    } catch (error) {
      if (!isStoreError(error) || error.code !== "fenced") throw error;
      if (!this.fenced) {
        this.fenced = true;
        this.sealed = true;
        this.options.logger.warn("run claimed by another worker: this one stops writing", {
          runId: this.options.runId,
        });
        this.options.claim?.onFenced();
      }
      return undefined;
    }
  }

  private enqueue(task: () => Promise<void>): Promise<void> {
    // A deferred drain goes first: what was queued before this task is written before it.
    if (this.deferred) this.startDrain();
    const next = this.tail.then(task).catch((error: unknown) => {
      this.options.logger.error("recording run events failed", {
        runId: this.options.runId,
        error: String(error),
      });
    });
    this.tail = next;
    return next;
  }

  /**
   * Writes every event queued since the last drain in one transaction (a burst of streamed chunks costs
   * one commit), then publishes them in order. Events after a terminal one are dropped.
   */
  private async drain(): Promise<void> {
    this.drainQueued = false;
    const items = this.pending.splice(0);
    // A server event (cancel while paused, recovery at start) takes the run's step, not 0.
    this.lastStep ??= await this.readLastStep();
    const entries: EventEntry[] = [];
    let seq = this.lastSeq;
    let step = this.lastStep;
    let sealed = this.sealed;
    let checkpoint: AppendBatchOptions["checkpoint"];
    for (const item of items) {
      if (sealed) continue;
      if (item.checkpoint) {
        const state = this.options.redactor.redact(item.checkpoint) as unknown as Record<string, unknown>;
        checkpoint = { runId: this.options.runId, seq, state };
        continue;
      }
      seq += 1;
      if (item.raw.seq !== 0 && item.raw.seq !== seq) {
        this.options.logger.warn("event renumbered", {
          runId: this.options.runId,
          emitted: item.raw.seq,
          stored: seq,
        });
      }
      step = item.extra ? step : Math.max(step, item.raw.step);
      // A secret split across stream chunks is caught whole (the text is held back until it is known).
      const raw = item.raw.type === "llm_stream_chunk" ? this.streams.redactChunk(item.raw) : item.raw;
      const event = this.options.redactor.redact({
        ...raw,
        runId: this.options.runId,
        seq,
        ...(item.extra ? { step } : {}),
      }) as RunEvent;
      const derived = this.effects.derive(event, this.status);
      const run = item.extra ? { ...derived?.run, ...item.extra } : derived?.run;
      const hasRun = run !== undefined && !isEmpty(run);
      entries.push(
        hasRun || derived?.task
          ? {
              event,
              options: { ...(hasRun ? { run } : {}), ...(derived?.task ? { task: derived.task } : {}) },
            }
          : { event },
      );
      if (run?.status !== undefined && TERMINAL_RUN_STATUSES.has(run.status)) sealed = true;
    }
    try {
      const { claim } = this.options;
      const batch: AppendBatchOptions = {
        ...(claim ? { fence: { runId: this.options.runId, epoch: claim.epoch } } : {}),
        ...(checkpoint ? { checkpoint } : {}),
      };
      if (entries.length === 0 && !checkpoint) return;
      const written = await this.fence(async () => {
        await this.options.store.appendEvents(entries, batch);
        return true;
      });
      if (!written) return;
      this.lastSeq = seq;
      this.lastStep = step;
      // Never unseal: seal() may have come while this batch was being written.
      this.sealed ||= sealed;
      for (const { event, options } of entries) {
        this.options.hub.publishEvent(event);
        if (options?.run?.status) this.setStatus(options.run.status);
      }
    } finally {
      for (const item of items) item.resolve?.();
    }
  }

  private async readLastStep(): Promise<number> {
    try {
      const [last] = await this.options.store.listEvents(this.options.runId, {
        afterSeq: this.lastSeq - 1,
        limit: 1,
      });
      return last?.step ?? 0;
    } catch {
      return 0;
    }
  }

  private setStatus(status: RunStatus): void {
    if (status === this.status) return;
    this.status = status;
    this.options.hub.publishStatus({ runId: this.options.runId, status, lastSeq: this.lastSeq });
  }
}

function isEmpty(patch: RunPatch): boolean {
  for (const key in patch) if (patch[key as keyof RunPatch] !== undefined) return false;
  return true;
}
