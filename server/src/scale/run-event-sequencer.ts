import { TERMINAL_EVENT_TYPES, type RunEvent, type RunStatusMessage } from "@waddle/protocol";
import type { RunEventHub } from "../runs/run-event-hub.js";
import type { Logger } from "../shared/logger.js";
import type { WaddleStore } from "../store/waddle-store.js";

interface RunCursor {
  /** The last seq published to the hub, in order. */
  delivered: number;
  /** Events that came ahead of a gap, until the store fills it. */
  ahead: Map<number, RunEvent>;
  filling: boolean;
  terminal: boolean;
  status?: RunStatusMessage["status"];
  touchedAt: number;
}

const FILL_PAGE = 500;
/** Cursors of runs nobody heard from for this long are dropped (a run heard from again starts afresh). */
const FORGET_MS = 10 * 60_000;
/** An ended run's cursor only waits for late duplicates. */
const FORGET_ENDED_MS = 30_000;

/**
 * Puts one instance's view of every run's events in order (queue mode): events come from this instance's
 * workers and, over Redis, from the others', where a message may be lost or late. Each run's events are
 * published to the hub in `seq` order; an event past a gap waits while the missing ones are read from the
 * store (which has every event before any instance hears of it). A run watched here that goes quiet is
 * read from the store now and then, so that a lost last event (the run's end) or status still arrives.
 * Publishing may repeat an event after `noteDelivered`: consumers drop seqs they have.
 */
export class RunEventSequencer {
  private readonly cursors = new Map<string, RunCursor>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly options: {
      store: WaddleStore;
      hub: RunEventHub;
      logger: Logger;
      /** Runs someone on this instance follows (socket subscribers, run followers). */
      getWatchedRunIds: () => Iterable<string>;
      pollMs: number;
    },
  ) {}

  start(): void {
    this.timer ??= setInterval(() => void this.poll(), this.options.pollMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  accept(event: RunEvent): void {
    const cursor = this.getCursor(event.runId, event.seq - 1);
    cursor.touchedAt = Date.now();
    if (event.seq <= cursor.delivered) return;
    if (event.seq === cursor.delivered + 1 && !cursor.filling) {
      this.publish(cursor, event);
      this.publishAhead(cursor);
      return;
    }
    cursor.ahead.set(event.seq, event);
    if (!cursor.filling) void this.fill(event.runId, cursor);
  }

  acceptStatus(message: RunStatusMessage): void {
    const cursor = this.cursors.get(message.runId);
    if (cursor) cursor.status = message.status;
    this.options.hub.publishStatus(message);
    if (cursor && message.lastSeq > cursor.delivered && !cursor.filling)
      void this.fill(message.runId, cursor);
  }

  /**
   * A consumer has every event up to `seq` from the store (a socket's replay): from then on it must get
   * every later one, even if this instance heard of none of them yet.
   */
  noteDelivered(runId: string, seq: number): void {
    const cursor = this.cursors.get(runId);
    if (!cursor) {
      this.getCursor(runId, seq);
      return;
    }
    if (seq < cursor.delivered) cursor.delivered = seq;
  }

  /** Reads the store after the last delivered seq and publishes what it has, then what waited ahead. */
  private async fill(runId: string, cursor: RunCursor): Promise<void> {
    cursor.filling = true;
    try {
      for (let round = 0; round < 50; round += 1) {
        const events = await this.options.store.listEvents(runId, {
          afterSeq: cursor.delivered,
          limit: FILL_PAGE,
        });
        for (const event of events) if (event.seq === cursor.delivered + 1) this.publish(cursor, event);
        this.publishAhead(cursor);
        if (cursor.ahead.size === 0 && events.length < FILL_PAGE) return;
        if (events.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } catch (error) {
      this.options.logger.warn("filling a gap in live events failed", { runId, error: String(error) });
    } finally {
      cursor.filling = false;
    }
  }

  private publishAhead(cursor: RunCursor): void {
    for (;;) {
      const next = cursor.ahead.get(cursor.delivered + 1);
      if (!next) break;
      cursor.ahead.delete(next.seq);
      this.publish(cursor, next);
    }
    for (const seq of cursor.ahead.keys()) if (seq <= cursor.delivered) cursor.ahead.delete(seq);
  }

  private publish(cursor: RunCursor, event: RunEvent): void {
    cursor.delivered = event.seq;
    if (TERMINAL_EVENT_TYPES.has(event.type)) cursor.terminal = true;
    this.options.hub.publishEvent(event);
  }

  private getCursor(runId: string, delivered: number): RunCursor {
    let cursor = this.cursors.get(runId);
    if (!cursor) {
      cursor = { delivered, ahead: new Map(), filling: false, terminal: false, touchedAt: Date.now() };
      this.cursors.set(runId, cursor);
    }
    return cursor;
  }

  /** Watched runs that went quiet: anything the store has that this instance did not hear of. */
  private async poll(): Promise<void> {
    const now = Date.now();
    for (const [runId, cursor] of this.cursors) {
      const idle = now - cursor.touchedAt;
      if (idle > FORGET_MS || (cursor.terminal && idle > FORGET_ENDED_MS)) this.cursors.delete(runId);
    }
    let read = 0;
    for (const runId of new Set(this.options.getWatchedRunIds())) {
      const cursor = this.cursors.get(runId);
      if (cursor?.terminal || cursor?.filling || (cursor && now - cursor.touchedAt < this.options.pollMs))
        continue;
      if ((read += 1) > 200) break;
      try {
        const run = await this.options.store.getRun(runId);
        if (!run) continue;
        const current = this.getCursor(runId, run.lastSeq ?? 0);
        if ((run.lastSeq ?? 0) > current.delivered) void this.fill(runId, current);
        if (current.status !== undefined && current.status !== run.status) {
          this.options.hub.publishStatus({ runId, status: run.status, lastSeq: run.lastSeq ?? 0 });
        }
        current.status = run.status;
      } catch (error) {
        this.options.logger.warn("polling a watched run failed", { runId, error: String(error) });
        return;
      }
    }
  }
}
