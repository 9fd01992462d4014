import type { WebhookDelivery } from "@waddle/protocol";
import { StoreError } from "../waddle-store.js";
import {
  WEBHOOK_DELIVERIES_MAX_LIMIT,
  type AttemptOutcome,
  type NewOutboxEntry,
  type OutboxEntry,
  type StoredWebhook,
  type WebhookPatch,
  type WebhookStore,
} from "./webhook-store.js";

interface HeldEntry extends OutboxEntry {
  leaseUntilMs: number | null;
}

/** Webhooks and their outbox in this process (tests, `MemoryStore`). */
export class MemoryWebhookStore implements WebhookStore {
  private readonly webhooks = new Map<string, StoredWebhook>();
  private readonly entries = new Map<string, HeldEntry>();
  private readonly deliveries: WebhookDelivery[] = [];

  async create(webhook: StoredWebhook): Promise<StoredWebhook> {
    if (this.webhooks.has(webhook.id))
      throw new StoreError("conflict", `Webhook "${webhook.id}" already exists.`, { id: webhook.id });
    this.webhooks.set(webhook.id, structuredClone(webhook));
    return structuredClone(webhook);
  }

  async get(id: string): Promise<StoredWebhook | undefined> {
    const webhook = this.webhooks.get(id);
    return webhook && structuredClone(webhook);
  }

  async list(): Promise<StoredWebhook[]> {
    return [...this.webhooks.values()].map((webhook) => structuredClone(webhook));
  }

  async update(id: string, patch: WebhookPatch): Promise<StoredWebhook | undefined> {
    const webhook = this.webhooks.get(id);
    if (!webhook) return undefined;
    const defined = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
    const next = { ...webhook, ...structuredClone(defined) };
    this.webhooks.set(id, next);
    return structuredClone(next);
  }

  async delete(id: string): Promise<boolean> {
    if (!this.webhooks.delete(id)) return false;
    for (const [entryId, entry] of this.entries) if (entry.webhookId === id) this.entries.delete(entryId);
    for (let index = this.deliveries.length - 1; index >= 0; index--)
      if (this.deliveries[index]!.webhookId === id) this.deliveries.splice(index, 1);
    return true;
  }

  async enqueue(entries: readonly NewOutboxEntry[]): Promise<void> {
    for (const entry of entries) {
      if (this.entries.has(entry.id))
        throw new StoreError("conflict", `Outbox entry "${entry.id}" already exists.`, { id: entry.id });
      if (!this.webhooks.has(entry.webhookId))
        throw new StoreError("not_found", `Webhook "${entry.webhookId}" does not exist.`, {
          id: entry.webhookId,
        });
    }
    for (const entry of entries) {
      this.entries.set(entry.id, {
        id: entry.id,
        webhookId: entry.webhookId,
        body: structuredClone(entry.body),
        state: "pending",
        attempts: 0,
        createdAtMs: entry.createdAtMs,
        nextAttemptAtMs: entry.nextAttemptAtMs,
        leaseUntilMs: entry.leaseUntilMs ?? null,
      });
    }
  }

  async claimDue(options: { nowMs: number; leaseMs: number; limit: number }): Promise<OutboxEntry[]> {
    const due = [...this.entries.values()]
      .filter((entry) => isFree(entry, options.nowMs) && entry.nextAttemptAtMs! <= options.nowMs)
      .sort((a, b) => a.nextAttemptAtMs! - b.nextAttemptAtMs!)
      .slice(0, options.limit);
    for (const entry of due) entry.leaseUntilMs = options.nowMs + options.leaseMs;
    return due.map(toEntry);
  }

  async claim(options: {
    id: string;
    attempts: number;
    nowMs: number;
    leaseMs: number;
  }): Promise<OutboxEntry | undefined> {
    const entry = this.entries.get(options.id);
    if (!entry || entry.attempts !== options.attempts || !isFree(entry, options.nowMs)) return undefined;
    entry.leaseUntilMs = options.nowMs + options.leaseMs;
    return toEntry(entry);
  }

  async recordAttempt(outcome: AttemptOutcome): Promise<boolean> {
    const entry = this.entries.get(outcome.entryId);
    if (!entry || entry.state !== "pending" || entry.attempts !== outcome.attempts) return false;
    entry.attempts += 1;
    entry.state = outcome.state;
    entry.nextAttemptAtMs = outcome.nextAttemptAtMs;
    entry.leaseUntilMs = null;
    this.deliveries.push(structuredClone(outcome.delivery));
    return true;
  }

  async listDeliveries(webhookId: string, options: { limit?: number } = {}): Promise<WebhookDelivery[]> {
    const limit = Math.min(options.limit ?? WEBHOOK_DELIVERIES_MAX_LIMIT, WEBHOOK_DELIVERIES_MAX_LIMIT);
    return this.deliveries
      .filter((delivery) => delivery.webhookId === webhookId)
      .reverse()
      .slice(0, limit)
      .map((delivery) => structuredClone(delivery));
  }

  async listOverdue(options: { beforeMs: number; nowMs: number; limit: number }): Promise<OutboxEntry[]> {
    return [...this.entries.values()]
      .filter((entry) => isFree(entry, options.nowMs) && entry.nextAttemptAtMs! < options.beforeMs)
      .sort((a, b) => a.nextAttemptAtMs! - b.nextAttemptAtMs!)
      .slice(0, options.limit)
      .map(toEntry);
  }

  async getNextDueAt(): Promise<number | undefined> {
    let soonest: number | undefined;
    for (const entry of this.entries.values()) {
      if (entry.state !== "pending" || entry.nextAttemptAtMs === null) continue;
      const due = Math.max(entry.nextAttemptAtMs, entry.leaseUntilMs ?? 0);
      if (soonest === undefined || due < soonest) soonest = due;
    }
    return soonest;
  }
}

function isFree(entry: HeldEntry, nowMs: number): boolean {
  return entry.state === "pending" && (entry.leaseUntilMs === null || entry.leaseUntilMs <= nowMs);
}

function toEntry(entry: HeldEntry): OutboxEntry {
  const { leaseUntilMs: _lease, ...rest } = entry;
  return structuredClone(rest);
}
