import type { RunEvent } from "@waddle/protocol";
import type { WaddleStore } from "../store/waddle-store.js";
import type { RunEventHub } from "./run-event-hub.js";

export interface RunEventFollowerOptions {
  hub: RunEventHub;
  store: WaddleStore;
  runId: string;
  /** Deliver the events after this seq. */
  afterSeq: number;
  /** The run's events after `afterSeq`, in seq order, each once. */
  onEvent: (event: RunEvent) => void;
  /** Read the store this many events at a time (default: all at once). */
  pageSize?: number;
  /** Called after each page read from the store has been delivered (a batching caller sends it then). */
  onPage?: () => void;
  /**
   * Hold a live event that does not follow the last delivered one until the next `catchUp` reads the gap
   * from the store (default: deliver it, the gap stays).
   */
  inOrder?: boolean;
}

/**
 * "Read the stored events, then follow live", once for the socket gateway, `/v1`, `/mcp` and the CLI. It
 * listens to the hub from the start; `catchUp` reads what the store has after the last delivered event
 * while live events wait, then sends those it did not already give. Every event is delivered once: one at
 * or below the last delivered seq (a hub that repeats one) is dropped. The hub publishes an event only
 * once the store has it, so listening first and reading second misses nothing.
 */
export class RunEventFollower {
  private delivered: number;
  private reading = 0;
  /** Until the first catch-up, live events wait: none may go out before the stored ones. */
  private caughtUp = false;
  private readonly held: RunEvent[] = [];
  private readonly stopListening: () => void;

  constructor(private readonly options: RunEventFollowerOptions) {
    this.delivered = options.afterSeq;
    this.stopListening = options.hub.onRunEvent(options.runId, (event) => {
      if (!this.caughtUp || this.reading > 0 || (options.inOrder && event.seq > this.delivered + 1))
        this.held.push(event);
      else this.deliver(event);
    });
  }

  /** The last seq delivered (`afterSeq` until one is). */
  get lastSeq(): number {
    return this.delivered;
  }

  /**
   * Delivers what the store has after the last delivered event, then the live events that came meanwhile,
   * in one synchronous step after the last read. False, delivering nothing more, once `isCancelled` says so.
   */
  async catchUp(isCancelled: () => boolean = () => false): Promise<boolean> {
    const { store, runId, pageSize } = this.options;
    this.reading += 1;
    try {
      for (;;) {
        const page = await store.listEvents(runId, {
          afterSeq: this.delivered,
          ...(pageSize ? { limit: pageSize } : {}),
        });
        if (isCancelled()) return false;
        for (const event of page) this.deliver(event);
        this.options.onPage?.();
        if (!pageSize || page.length < pageSize) break;
      }
    } finally {
      this.reading -= 1;
    }
    if (this.reading === 0) {
      this.caughtUp = true;
      for (const event of this.held.splice(0).sort((a, b) => a.seq - b.seq)) this.deliver(event);
    }
    return true;
  }

  stop(): void {
    this.stopListening();
  }

  private deliver(event: RunEvent): void {
    if (event.seq <= this.delivered) return;
    this.delivered = event.seq;
    this.options.onEvent(event);
  }
}
