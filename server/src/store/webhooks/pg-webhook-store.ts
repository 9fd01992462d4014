import type { WebhookDelivery } from "@waddle/protocol";
import { isUniqueViolation } from "../pg-errors.js";
import type { PgQuery } from "../request-keys/pg-request-key-store.js";
import type { PgTransaction } from "../sessions/pg-session-store.js";
import { StoreError } from "../waddle-store.js";
import {
  getWebhookSets,
  toOutboxEntry,
  toStoredWebhook,
  toWebhookDelivery,
  toWebhookValues,
  WEBHOOK_COLUMNS,
  type OutboxRow,
  type WebhookRow,
} from "./webhook-rows.js";
import {
  WEBHOOK_DELIVERIES_MAX_LIMIT,
  type AttemptOutcome,
  type NewOutboxEntry,
  type OutboxEntry,
  type StoredWebhook,
  type WebhookPatch,
  type WebhookStore,
} from "./webhook-store.js";

const FREE = "state = 'pending' AND (lease_until_ms IS NULL OR lease_until_ms <= $1)";

/**
 * Webhooks and their outbox in the PostgreSQL store (migration 18). A claim is one conditional `UPDATE`
 * (`FOR UPDATE SKIP LOCKED` for a batch), so that of several instances claiming, each entry goes to one.
 */
export class PgWebhookStore implements WebhookStore {
  constructor(
    private readonly query: PgQuery,
    private readonly transaction: PgTransaction,
  ) {}

  async create(webhook: StoredWebhook): Promise<StoredWebhook> {
    try {
      await this.query(
        `INSERT INTO webhooks (${WEBHOOK_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        toWebhookValues(webhook, false),
        "write",
      );
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      throw new StoreError("conflict", `Webhook "${webhook.id}" already exists.`, { id: webhook.id });
    }
    return structuredClone(webhook);
  }

  async get(id: string): Promise<StoredWebhook | undefined> {
    const { rows } = await this.query("SELECT * FROM webhooks WHERE id = $1", [id]);
    return rows[0] ? toStoredWebhook(rows[0] as WebhookRow) : undefined;
  }

  async list(): Promise<StoredWebhook[]> {
    const { rows } = await this.query("SELECT * FROM webhooks ORDER BY position");
    return (rows as WebhookRow[]).map(toStoredWebhook);
  }

  async update(id: string, patch: WebhookPatch): Promise<StoredWebhook | undefined> {
    const { columns, values } = getWebhookSets(patch, false);
    if (columns.length === 0) return this.get(id);
    const sets = columns.map((column, index) => `${column} = $${index + 2}`).join(", ");
    const { rows } = await this.query(
      `UPDATE webhooks SET ${sets} WHERE id = $1 RETURNING *`,
      [id, ...values],
      "write",
    );
    return rows[0] ? toStoredWebhook(rows[0] as WebhookRow) : undefined;
  }

  async delete(id: string): Promise<boolean> {
    // The outbox and the attempts go with it (ON DELETE CASCADE).
    const result = await this.query("DELETE FROM webhooks WHERE id = $1", [id], "write");
    return result.rowCount === 1;
  }

  async enqueue(entries: readonly NewOutboxEntry[]): Promise<void> {
    if (entries.length === 0) return;
    try {
      await this.query(
        `INSERT INTO webhook_outbox (id, webhook_id, body, state, attempts, created_at_ms, next_attempt_at_ms, lease_until_ms)
           SELECT id, webhook_id, body, 'pending', 0, created_at_ms, next_attempt_at_ms, lease_until_ms
             FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::bigint[])
               AS entry (id, webhook_id, body, created_at_ms, next_attempt_at_ms, lease_until_ms)`,
        [
          entries.map((entry) => entry.id),
          entries.map((entry) => entry.webhookId),
          entries.map((entry) => JSON.stringify(entry.body)),
          entries.map((entry) => entry.createdAtMs),
          entries.map((entry) => entry.nextAttemptAtMs),
          entries.map((entry) => entry.leaseUntilMs ?? null),
        ],
        "write",
      );
    } catch (error) {
      if (isUniqueViolation(error))
        throw new StoreError("conflict", "An outbox entry with this id already exists.");
      if ((error as { code?: unknown }).code === "23503")
        throw new StoreError("not_found", "An outbox entry names a webhook that does not exist.");
      throw error;
    }
  }

  async claimDue(options: { nowMs: number; leaseMs: number; limit: number }): Promise<OutboxEntry[]> {
    const { rows } = await this.query(
      `UPDATE webhook_outbox SET lease_until_ms = $2
         WHERE id IN (SELECT id FROM webhook_outbox WHERE ${FREE} AND next_attempt_at_ms <= $1
                      ORDER BY next_attempt_at_ms LIMIT $3 FOR UPDATE SKIP LOCKED)
         RETURNING *`,
      [options.nowMs, options.nowMs + options.leaseMs, options.limit],
      "write",
    );
    return (rows as OutboxRow[]).map(toOutboxEntry).sort((a, b) => a.nextAttemptAtMs! - b.nextAttemptAtMs!);
  }

  async claim(options: {
    id: string;
    attempts: number;
    nowMs: number;
    leaseMs: number;
  }): Promise<OutboxEntry | undefined> {
    const { rows } = await this.query(
      `UPDATE webhook_outbox SET lease_until_ms = $2 WHERE id = $3 AND attempts = $4 AND ${FREE} RETURNING *`,
      [options.nowMs, options.nowMs + options.leaseMs, options.id, options.attempts],
      "write",
    );
    return rows[0] ? toOutboxEntry(rows[0] as OutboxRow) : undefined;
  }

  async recordAttempt(outcome: AttemptOutcome): Promise<boolean> {
    return this.transaction(async (query) => {
      const moved = await query(
        `UPDATE webhook_outbox SET attempts = attempts + 1, state = $1, next_attempt_at_ms = $2, lease_until_ms = NULL
           WHERE id = $3 AND attempts = $4 AND state = 'pending'`,
        [outcome.state, outcome.nextAttemptAtMs, outcome.entryId, outcome.attempts],
      );
      if (moved.rowCount !== 1) return false;
      await query("INSERT INTO webhook_deliveries (id, webhook_id, record) VALUES ($1, $2, $3)", [
        outcome.delivery.id,
        outcome.delivery.webhookId,
        JSON.stringify(outcome.delivery),
      ]);
      return true;
    });
  }

  async listDeliveries(webhookId: string, options: { limit?: number } = {}): Promise<WebhookDelivery[]> {
    const limit = Math.min(options.limit ?? WEBHOOK_DELIVERIES_MAX_LIMIT, WEBHOOK_DELIVERIES_MAX_LIMIT);
    const { rows } = await this.query(
      "SELECT id, record FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY position DESC LIMIT $2",
      [webhookId, limit],
    );
    return (rows as { id: string; record: string }[]).map((row) => toWebhookDelivery(row.id, row.record));
  }

  async listOverdue(options: { beforeMs: number; nowMs: number; limit: number }): Promise<OutboxEntry[]> {
    const { rows } = await this.query(
      `SELECT * FROM webhook_outbox WHERE ${FREE} AND next_attempt_at_ms < $2
         ORDER BY next_attempt_at_ms LIMIT $3`,
      [options.nowMs, options.beforeMs, options.limit],
    );
    return (rows as OutboxRow[]).map(toOutboxEntry);
  }

  async getNextDueAt(): Promise<number | undefined> {
    const { rows } = await this.query(
      `SELECT MIN(GREATEST(next_attempt_at_ms, COALESCE(lease_until_ms, 0))) AS due
         FROM webhook_outbox WHERE state = 'pending'`,
    );
    const due = (rows[0] as { due: string | number | null } | undefined)?.due;
    return due === null || due === undefined ? undefined : Number(due);
  }
}
