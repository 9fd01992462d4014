import type { NotificationBody, Webhook, WebhookDelivery } from "@waddle/protocol";

/** A webhook as stored: what the API shows, and its signing secret sealed (`CredentialVault.seal`). */
export interface StoredWebhook extends Webhook {
  sealedSecret: string;
  updatedAt: string;
}

/** The fields `update` changes; `undefined` keeps the stored value. */
export type WebhookPatch = Partial<
  Pick<StoredWebhook, "url" | "events" | "agents" | "format" | "enabled" | "sealedSecret" | "updatedAt">
>;

/**
 * One notification on its way to one webhook (the outbox). `pending` until it is `delivered`, or `failed`
 * for good (another 4xx, or the retry window passed). Times are milliseconds since the epoch, so that
 * every store compares them as numbers.
 */
export interface OutboxEntry {
  id: string;
  webhookId: string;
  body: NotificationBody;
  state: "pending" | "delivered" | "failed";
  /** Attempts made so far. */
  attempts: number;
  createdAtMs: number;
  /** When the next attempt is due; null once delivered or failed. */
  nextAttemptAtMs: number | null;
}

/** What `enqueue` writes: a new pending entry, optionally already claimed by its writer (`leaseUntilMs`). */
export interface NewOutboxEntry {
  id: string;
  webhookId: string;
  body: NotificationBody;
  createdAtMs: number;
  nextAttemptAtMs: number;
  leaseUntilMs?: number;
}

/** An attempt's outcome, written with the attempt's log line. */
export interface AttemptOutcome {
  entryId: string;
  /** The entry's `attempts` when it was claimed: nothing is written if another attempt came between. */
  attempts: number;
  delivery: WebhookDelivery;
  state: OutboxEntry["state"];
  nextAttemptAtMs: number | null;
}

/** Most attempts `listDeliveries` answers. */
export const WEBHOOK_DELIVERIES_MAX_LIMIT = 500;

/**
 * Outgoing webhooks and their durable outbox (issue 34): SQLite (migration 21), PostgreSQL (migration 18)
 * and in memory, one conformance suite (`webhookStoreCases`). A claim is a lease on one entry: of any
 * number of concurrent claims on every instance, one wins, so that each attempt is made once.
 */
export interface WebhookStore {
  create(webhook: StoredWebhook): Promise<StoredWebhook>;
  get(id: string): Promise<StoredWebhook | undefined>;
  /** Oldest first. */
  list(): Promise<StoredWebhook[]>;
  update(id: string, patch: WebhookPatch): Promise<StoredWebhook | undefined>;
  /** Deletes the webhook with its outbox entries and their attempts; false when unknown. */
  delete(id: string): Promise<boolean>;

  /** Writes new pending entries, all or none. */
  enqueue(entries: readonly NewOutboxEntry[]): Promise<void>;
  /**
   * Claims up to `limit` pending entries that are due at `nowMs` and that no live lease holds, soonest due
   * first, each leased until `nowMs + leaseMs`.
   */
  claimDue(options: { nowMs: number; leaseMs: number; limit: number }): Promise<OutboxEntry[]>;
  /**
   * Claims one pending entry for its attempt number `attempts + 1` (due or not: a queue's delayed job is
   * its schedule), unless a live lease holds it or its attempts moved on; undefined then.
   */
  claim(options: {
    id: string;
    attempts: number;
    nowMs: number;
    leaseMs: number;
  }): Promise<OutboxEntry | undefined>;
  /**
   * Logs an attempt and moves its entry on (attempts + 1, the new state and due time, lease freed), in one
   * transaction; false (nothing written) when the entry is gone or its attempts moved on meanwhile.
   */
  recordAttempt(outcome: AttemptOutcome): Promise<boolean>;
  /** A webhook's attempts, newest first. */
  listDeliveries(webhookId: string, options?: { limit?: number }): Promise<WebhookDelivery[]>;
  /** Pending entries due before `beforeMs` that no live lease at `nowMs` holds (a queue's sweeper). */
  listOverdue(options: { beforeMs: number; nowMs: number; limit: number }): Promise<OutboxEntry[]>;
  /** When a pending entry may next be claimed (its due time, or its lease's end when later); undefined: none waits. */
  getNextDueAt(): Promise<number | undefined>;
}
