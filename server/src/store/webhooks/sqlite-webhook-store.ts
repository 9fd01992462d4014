import type Database from "better-sqlite3";
import type { WebhookDelivery } from "@waddle/protocol";
import { writeTransaction } from "../sqlite-write-transaction.js";
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

const FREE = "state = 'pending' AND (lease_until_ms IS NULL OR lease_until_ms <= @nowMs)";

/** Webhooks and their outbox in the SQLite store (migration 21); one process writes it. */
export class SqliteWebhookStore implements WebhookStore {
  constructor(private readonly db: Database.Database) {}

  async create(webhook: StoredWebhook): Promise<StoredWebhook> {
    try {
      this.db
        .prepare(`INSERT INTO webhooks (${WEBHOOK_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
        .run(...toWebhookValues(webhook, true));
    } catch (error) {
      if ((error as { code?: string }).code !== "SQLITE_CONSTRAINT_PRIMARYKEY") throw error;
      throw new StoreError("conflict", `Webhook "${webhook.id}" already exists.`, { id: webhook.id });
    }
    return structuredClone(webhook);
  }

  async get(id: string): Promise<StoredWebhook | undefined> {
    const row = this.db.prepare("SELECT * FROM webhooks WHERE id = ?").get(id) as WebhookRow | undefined;
    return row && toStoredWebhook(row);
  }

  async list(): Promise<StoredWebhook[]> {
    const rows = this.db.prepare("SELECT * FROM webhooks ORDER BY rowid").all() as WebhookRow[];
    return rows.map(toStoredWebhook);
  }

  async update(id: string, patch: WebhookPatch): Promise<StoredWebhook | undefined> {
    const { columns, values } = getWebhookSets(patch, true);
    if (columns.length > 0) {
      this.db
        .prepare(`UPDATE webhooks SET ${columns.map((column) => `${column} = ?`).join(", ")} WHERE id = ?`)
        .run(...values, id);
    }
    return this.get(id);
  }

  async delete(id: string): Promise<boolean> {
    return writeTransaction(this.db, () => {
      this.db.prepare("DELETE FROM webhook_deliveries WHERE webhook_id = ?").run(id);
      this.db.prepare("DELETE FROM webhook_outbox WHERE webhook_id = ?").run(id);
      return this.db.prepare("DELETE FROM webhooks WHERE id = ?").run(id).changes === 1;
    })();
  }

  async enqueue(entries: readonly NewOutboxEntry[]): Promise<void> {
    const insert = this.db.prepare(
      `INSERT INTO webhook_outbox (id, webhook_id, body, state, attempts, created_at_ms, next_attempt_at_ms, lease_until_ms)
         VALUES (?, ?, ?, 'pending', 0, ?, ?, ?)`,
    );
    try {
      writeTransaction(this.db, () => {
        for (const entry of entries) {
          insert.run(
            entry.id,
            entry.webhookId,
            JSON.stringify(entry.body),
            entry.createdAtMs,
            entry.nextAttemptAtMs,
            entry.leaseUntilMs ?? null,
          );
        }
      })();
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === "SQLITE_CONSTRAINT_PRIMARYKEY")
        throw new StoreError("conflict", "An outbox entry with this id already exists.");
      if (code === "SQLITE_CONSTRAINT_FOREIGNKEY")
        throw new StoreError("not_found", "An outbox entry names a webhook that does not exist.");
      throw error;
    }
  }

  async claimDue(options: { nowMs: number; leaseMs: number; limit: number }): Promise<OutboxEntry[]> {
    const rows = this.db
      .prepare(
        `UPDATE webhook_outbox SET lease_until_ms = @leaseUntilMs
           WHERE id IN (SELECT id FROM webhook_outbox WHERE ${FREE} AND next_attempt_at_ms <= @nowMs
                        ORDER BY next_attempt_at_ms LIMIT @limit)
           RETURNING *`,
      )
      .all({ nowMs: options.nowMs, leaseUntilMs: options.nowMs + options.leaseMs, limit: options.limit });
    return (rows as OutboxRow[]).map(toOutboxEntry).sort((a, b) => a.nextAttemptAtMs! - b.nextAttemptAtMs!);
  }

  async claim(options: {
    id: string;
    attempts: number;
    nowMs: number;
    leaseMs: number;
  }): Promise<OutboxEntry | undefined> {
    const row = this.db
      .prepare(
        `UPDATE webhook_outbox SET lease_until_ms = @leaseUntilMs
           WHERE id = @id AND attempts = @attempts AND ${FREE} RETURNING *`,
      )
      .get({
        id: options.id,
        attempts: options.attempts,
        nowMs: options.nowMs,
        leaseUntilMs: options.nowMs + options.leaseMs,
      }) as OutboxRow | undefined;
    return row && toOutboxEntry(row);
  }

  async recordAttempt(outcome: AttemptOutcome): Promise<boolean> {
    return writeTransaction(this.db, () => {
      const moved = this.db
        .prepare(
          `UPDATE webhook_outbox SET attempts = attempts + 1, state = ?, next_attempt_at_ms = ?, lease_until_ms = NULL
             WHERE id = ? AND attempts = ? AND state = 'pending'`,
        )
        .run(outcome.state, outcome.nextAttemptAtMs, outcome.entryId, outcome.attempts);
      if (moved.changes !== 1) return false;
      this.db
        .prepare("INSERT INTO webhook_deliveries (id, webhook_id, record) VALUES (?, ?, ?)")
        .run(outcome.delivery.id, outcome.delivery.webhookId, JSON.stringify(outcome.delivery));
      return true;
    })();
  }

  async listDeliveries(webhookId: string, options: { limit?: number } = {}): Promise<WebhookDelivery[]> {
    const limit = Math.min(options.limit ?? WEBHOOK_DELIVERIES_MAX_LIMIT, WEBHOOK_DELIVERIES_MAX_LIMIT);
    const rows = this.db
      .prepare("SELECT id, record FROM webhook_deliveries WHERE webhook_id = ? ORDER BY rowid DESC LIMIT ?")
      .all(webhookId, limit) as { id: string; record: string }[];
    return rows.map((row) => toWebhookDelivery(row.id, row.record));
  }

  async listOverdue(options: { beforeMs: number; nowMs: number; limit: number }): Promise<OutboxEntry[]> {
    const rows = this.db
      .prepare(
        `SELECT * FROM webhook_outbox WHERE ${FREE} AND next_attempt_at_ms < @beforeMs
           ORDER BY next_attempt_at_ms LIMIT @limit`,
      )
      .all({ beforeMs: options.beforeMs, nowMs: options.nowMs, limit: options.limit }) as OutboxRow[];
    return rows.map(toOutboxEntry);
  }

  async getNextDueAt(): Promise<number | undefined> {
    const row = this.db
      .prepare(
        `SELECT MIN(MAX(next_attempt_at_ms, COALESCE(lease_until_ms, 0))) AS due
           FROM webhook_outbox WHERE state = 'pending'`,
      )
      .get() as { due: number | null };
    return row.due ?? undefined;
  }
}
