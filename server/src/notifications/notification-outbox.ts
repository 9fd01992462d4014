import { randomBytes } from "node:crypto";
import type { NotificationEvent, WebhookDelivery } from "@waddle/protocol";
import type { Logger } from "../shared/logger.js";
import type { NewOutboxEntry, StoredWebhook, WebhookStore } from "../store/webhooks/webhook-store.js";
import { createNotificationBody } from "./notification-body.js";
import type { NotificationData, NotifyFunction } from "./notify.js";
import type { OutboxScheduler } from "./outbox-scheduler.js";
import type { WebhookDeliverer } from "./webhook-deliverer.js";

/** `ntd_…`: one notification on its way to one webhook. */
function createEntryId(): string {
  return `ntd_${randomBytes(10).toString("hex")}`;
}

/** True when the webhook wants this event of this agent. */
export function isListening(
  webhook: StoredWebhook,
  type: NotificationEvent,
  agentId: string | undefined,
): boolean {
  if (!webhook.enabled || !webhook.events.includes(type)) return false;
  return webhook.agents === null || (agentId !== undefined && webhook.agents.includes(agentId));
}

/**
 * Turns notifications into outbox entries, one per webhook that listens, and hands them to the scheduler.
 * `notify` only enqueues: it returns at once and never throws (a failure is logged), so that the run, the
 * release or the trigger that notifies is never slowed or failed by a target.
 */
export class NotificationOutbox {
  constructor(
    private readonly options: {
      store: WebhookStore;
      scheduler: OutboxScheduler;
      deliverer: WebhookDeliverer;
      logger: Logger;
      /** Where the designer is reached from outside (`WADDLE_PUBLIC_URL`, else the server's own URL). */
      getPublicUrl: () => string;
      /** How long the test route's own claim holds its entry (longer than one attempt). */
      leaseMs: number;
      clock?: () => number;
    },
  ) {}

  /** See `NotifyFunction`. */
  readonly notify: NotifyFunction = (type, data) => {
    void this.enqueue(type, data).catch((error: unknown) => {
      this.options.logger.error("notification not enqueued", {
        type,
        agentId: data.agentId,
        error: error instanceof Error ? error.message : String(error),
      });
    });
  };

  /** Writes one entry per listening webhook; resolves with how many (the tests wait for it). */
  async enqueue(type: NotificationEvent, data: NotificationData): Promise<number> {
    const webhooks = (await this.options.store.list()).filter((webhook) =>
      isListening(webhook, type, data.agentId),
    );
    if (webhooks.length === 0) return 0;
    const now = this.now();
    const body = createNotificationBody({
      type,
      data,
      publicUrl: this.options.getPublicUrl(),
      now: new Date(now),
    });
    const entries: NewOutboxEntry[] = webhooks.map((webhook) => ({
      id: createEntryId(),
      webhookId: webhook.id,
      body,
      createdAtMs: now,
      nextAttemptAtMs: now,
    }));
    await this.options.store.enqueue(entries);
    this.options.scheduler.schedule(
      entries.map((entry) => ({ id: entry.id, attempts: 0, nextAttemptAtMs: now })),
    );
    return entries.length;
  }

  /**
   * `POST /api/webhooks/:id/test`: a test notification through the outbox to this webhook only, its first
   * attempt made here and now (the entry is written already claimed), its retries left to the scheduler.
   */
  async sendTest(webhook: StoredWebhook, actor: string): Promise<WebhookDelivery> {
    const now = this.now();
    const type = webhook.events[0]!;
    const agentId = webhook.agents?.[0];
    const body = createNotificationBody({
      type,
      data: {
        test: true,
        ...(agentId ? { agentId } : {}),
        summary: `A test notification from Waddle (${type}), sent by ${actor}.`,
      },
      publicUrl: this.options.getPublicUrl(),
      now: new Date(now),
    });
    const entry = {
      id: createEntryId(),
      webhookId: webhook.id,
      body,
      createdAtMs: now,
      nextAttemptAtMs: now,
    };
    await this.options.store.enqueue([{ ...entry, leaseUntilMs: now + this.options.leaseMs }]);
    const report = await this.options.deliverer.attempt({ ...entry, state: "pending", attempts: 0 });
    if (!report) throw new Error(`The test notification to webhook ${webhook.id} was not recorded.`);
    if (report.entry.state === "pending") this.options.scheduler.schedule([report.entry]);
    return report.delivery;
  }

  private now(): number {
    return (this.options.clock ?? Date.now)();
  }
}
