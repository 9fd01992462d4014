import type { OutboxEntry } from "../store/webhooks/webhook-store.js";

/** An entry to attempt when it is due: its id, the attempts it had, and when. */
export type ScheduledEntry = Pick<OutboxEntry, "id" | "attempts" | "nextAttemptAtMs">;

/**
 * What attempts the outbox's entries when they are due: a poller in this process (`InProcessOutbox`), or
 * BullMQ's delayed jobs for the workers of every instance (`BullmqOutbox`). The store stays the truth:
 * each attempt is claimed there first, so that a job or a wake-up seen twice sends once.
 */
export interface OutboxScheduler {
  /** Entries written or moved on: each is attempted once it is due. Never throws. */
  schedule(entries: readonly ScheduledEntry[]): void;
  start(): void;
  /** Stops taking entries; attempts under way are aborted (their leases run out, and they are made again). */
  close(): Promise<void>;
}
