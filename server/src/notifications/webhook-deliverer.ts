import { randomBytes } from "node:crypto";
import type { WebhookDelivery } from "@waddle/protocol";
import type { Logger } from "../shared/logger.js";
import type { HostAllowList } from "../tools/host-allow-list.js";
import type { HostLookup } from "../tools/resolve-allowed-address.js";
import type { OutboxEntry, StoredWebhook, WebhookStore } from "../store/webhooks/webhook-store.js";
import { getNextState, type AttemptResult, type RetryPolicy } from "./retry-policy.js";
import { sendWebhook, type SendOutcome } from "./send-webhook.js";
import { signPayload } from "./signature.js";
import { getSlackMessage } from "./slack-message.js";

/** Opens a webhook's sealed signing secret (the credential vault's key); throws when it does not open. */
export type OpenWebhookSecret = (webhook: StoredWebhook) => string;

export interface WebhookDelivererOptions {
  store: WebhookStore;
  openSecret: OpenWebhookSecret;
  /** The HTTP allow-list as it is now (the environment's and the stored entries). */
  getAllowList: () => Promise<HostAllowList>;
  policy: RetryPolicy;
  timeoutMs: number;
  logger: Logger;
  clock?: () => number;
  lookup?: HostLookup;
  /** Told of every attempt recorded (tests, the test route). */
  onAttempt?: (delivery: WebhookDelivery) => void;
}

/** The attempt recorded, and the entry as it is after it. */
export interface AttemptReport {
  delivery: WebhookDelivery;
  entry: OutboxEntry;
}

/**
 * Makes one attempt at a claimed outbox entry: reads its webhook (the URL, format and secret as they are
 * now), formats and signs the body, POSTs it, and records the attempt with the entry's next state. Never
 * throws: whatever goes wrong is the attempt's outcome, logged.
 */
export class WebhookDeliverer {
  private readonly clock: () => number;

  constructor(private readonly options: WebhookDelivererOptions) {
    this.clock = options.clock ?? Date.now;
  }

  /** Undefined when nothing was recorded (the webhook was deleted, or another attempt came first). */
  async attempt(entry: OutboxEntry, signal?: AbortSignal): Promise<AttemptReport | undefined> {
    try {
      const webhook = await this.options.store.get(entry.webhookId);
      if (!webhook) return undefined;
      const attemptedAt = this.clock();
      const outcome = await this.send(webhook, entry, signal);
      if (signal?.aborted) return undefined; // the server is closing: the lease runs out, the entry is tried again
      return await this.record(entry, attemptedAt, outcome);
    } catch (error) {
      this.options.logger.error("notification attempt not recorded", {
        entryId: entry.id,
        webhookId: entry.webhookId,
        error: error instanceof Error ? error.message : String(error),
      });
      return undefined;
    }
  }

  private async send(webhook: StoredWebhook, entry: OutboxEntry, signal?: AbortSignal): Promise<SendOutcome> {
    if (!webhook.enabled) return refused("the webhook is disabled");
    let secret: string;
    try {
      secret = this.options.openSecret(webhook);
    } catch (error) {
      return refused(`its secret does not open: ${error instanceof Error ? error.message : String(error)}`);
    }
    const body = JSON.stringify(webhook.format === "slack" ? getSlackMessage(entry.body) : entry.body);
    return sendWebhook({
      url: webhook.url,
      body,
      signature: signPayload({ secret, body, nowMs: this.clock() }),
      headers: {
        "user-agent": "Waddle-Notifications",
        "waddle-event": entry.body.type,
        "waddle-notification-id": entry.body.id,
        "waddle-attempt": String(entry.attempts + 1),
      },
      allowList: await this.options.getAllowList(),
      timeoutMs: this.options.timeoutMs,
      now: this.clock,
      ...(this.options.lookup ? { lookup: this.options.lookup } : {}),
      ...(signal ? { signal } : {}),
    });
  }

  private async record(
    entry: OutboxEntry,
    attemptedAt: number,
    outcome: SendOutcome,
  ): Promise<AttemptReport | undefined> {
    const attempts = entry.attempts + 1;
    const next = getNextState({
      result: outcome.result,
      attempts,
      createdAtMs: entry.createdAtMs,
      nowMs: this.clock(),
      policy: this.options.policy,
    });
    const delivery: WebhookDelivery = {
      id: `dlv_${randomBytes(10).toString("hex")}`,
      webhookId: entry.webhookId,
      notificationId: entry.body.id,
      type: entry.body.type,
      attempt: attempts,
      attemptedAt: new Date(attemptedAt).toISOString(),
      status: next.state === "pending" ? "retrying" : next.state,
      responseCode: outcome.result.kind === "response" ? outcome.result.status : null,
      latencyMs: outcome.latencyMs === null ? null : Math.round(outcome.latencyMs * 10) / 10,
      error: describeFailure(outcome.result),
      nextAttemptAt: next.nextAttemptAtMs === null ? null : new Date(next.nextAttemptAtMs).toISOString(),
    };
    const recorded = await this.options.store.recordAttempt({
      entryId: entry.id,
      attempts: entry.attempts,
      delivery,
      state: next.state,
      nextAttemptAtMs: next.nextAttemptAtMs,
    });
    if (!recorded) return undefined;
    const fields = {
      webhookId: delivery.webhookId,
      notificationId: delivery.notificationId,
      type: delivery.type,
      attempt: delivery.attempt,
      status: delivery.status,
      responseCode: delivery.responseCode,
      latencyMs: delivery.latencyMs,
      ...(delivery.error ? { error: delivery.error } : {}),
      ...(delivery.nextAttemptAt ? { nextAttemptAt: delivery.nextAttemptAt } : {}),
    };
    if (delivery.status === "delivered") this.options.logger.info("notification delivered", fields);
    else
      this.options.logger.warn(
        `notification ${delivery.status === "failed" ? "failed" : "not delivered yet"}`,
        fields,
      );
    this.options.onAttempt?.(delivery);
    return {
      delivery,
      entry: { ...entry, attempts, state: next.state, nextAttemptAtMs: next.nextAttemptAtMs },
    };
  }
}

function refused(message: string): SendOutcome {
  return { result: { kind: "refused", message }, latencyMs: null };
}

function describeFailure(result: AttemptResult): string | null {
  if (result.kind !== "response") return result.message.slice(0, 500);
  if (result.status >= 200 && result.status < 300) return null;
  if (result.status >= 300 && result.status < 400) return `HTTP ${result.status}: redirects are not followed`;
  return `HTTP ${result.status}`;
}
