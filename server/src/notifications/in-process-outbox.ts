import type { Logger } from "../shared/logger.js";
import type { WebhookStore } from "../store/webhooks/webhook-store.js";
import type { OutboxScheduler, ScheduledEntry } from "./outbox-scheduler.js";
import type { WebhookDeliverer } from "./webhook-deliverer.js";

/** Even with nothing due, the outbox is read again this often (a row written by hand, a clock jump). */
const IDLE_POLL_MS = 30_000;

/**
 * The outbox of a server on its own (SQLite, or memory): a timer set to the soonest due entry, woken at
 * once by new entries. It claims due entries in batches (a lease each, so that an attempt cut short by a
 * crash is made again after a restart) and attempts at most `concurrency` at a time.
 */
export class InProcessOutbox implements OutboxScheduler {
  private timer: NodeJS.Timeout | undefined;
  private readonly abort = new AbortController();
  private readonly active = new Set<Promise<void>>();
  private ticking = false;
  private again = false;
  private started = false;

  constructor(
    private readonly options: {
      store: WebhookStore;
      deliverer: WebhookDeliverer;
      logger: Logger;
      concurrency: number;
      /** How long a claim holds an entry: longer than an attempt can take. */
      leaseMs: number;
      clock?: () => number;
    },
  ) {}

  start(): void {
    this.started = true;
    this.wake();
  }

  schedule(_entries: readonly ScheduledEntry[]): void {
    this.wake();
  }

  async close(): Promise<void> {
    this.started = false;
    clearTimeout(this.timer);
    this.abort.abort();
    await Promise.allSettled([...this.active]);
  }

  private wake(): void {
    if (!this.started) return;
    if (this.ticking) {
      this.again = true;
      return;
    }
    this.ticking = true;
    void this.tick().finally(() => {
      this.ticking = false;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  private async tick(): Promise<void> {
    const now = this.now();
    const room = this.options.concurrency - this.active.size;
    try {
      if (room > 0) {
        const entries = await this.options.store.claimDue({
          nowMs: now,
          leaseMs: this.options.leaseMs,
          limit: room,
        });
        for (const entry of entries) {
          const attempt = this.options.deliverer
            .attempt(entry, this.abort.signal)
            .then(() => undefined)
            .finally(() => {
              this.active.delete(attempt);
              this.wake();
            });
          this.active.add(attempt);
        }
      }
      // A full worker is woken by its next free slot; otherwise by the soonest due entry.
      if (this.active.size >= this.options.concurrency) return this.setTimer(IDLE_POLL_MS);
      const due = await this.options.store.getNextDueAt();
      this.setTimer(due === undefined ? IDLE_POLL_MS : Math.min(IDLE_POLL_MS, Math.max(0, due - this.now())));
    } catch (error) {
      if (!this.started) return;
      this.options.logger.warn("notification outbox not read; trying again", {
        error: error instanceof Error ? error.message : String(error),
      });
      this.setTimer(1_000);
    }
  }

  private setTimer(ms: number): void {
    clearTimeout(this.timer);
    if (!this.started) return;
    this.timer = setTimeout(() => this.wake(), ms);
    this.timer.unref();
  }

  private now(): number {
    return (this.options.clock ?? Date.now)();
  }
}
