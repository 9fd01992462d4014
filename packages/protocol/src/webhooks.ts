import { z } from "zod";

/**
 * Notifications (issue 34): outgoing webhooks, delivered through a durable outbox, signed with
 * `Waddle-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`.
 */

export const NOTIFICATION_EVENTS = [
  "pause.created",
  "pause.due_soon",
  "pause.timed_out",
  "merge.pending",
  "run.failed",
  "run.finished",
  "budget.exceeded",
  "trigger.failed",
  "release.created",
] as const;
export const NotificationEvent = z.enum(NOTIFICATION_EVENTS);
export type NotificationEvent = z.infer<typeof NotificationEvent>;

/** The header a signed request carries (outgoing notifications and incoming `hmac` webhook triggers). */
export const SIGNATURE_HEADER = "Waddle-Signature";
/** A signature's timestamp may differ from the receiver's clock by this much (replays are refused). */
export const SIGNATURE_TOLERANCE_S = 300;

export const CreateWebhookRequest = z.strictObject({
  url: z.url({ protocol: /^https?$/ }).max(2_000),
  events: z.array(NotificationEvent).min(1),
  /** Only these agents' events (absent: every agent). */
  agents: z.array(z.string().min(1)).optional(),
  format: z.enum(["json", "slack"]).optional(),
  /** Generated when absent; shown once. */
  secret: z.string().min(16).max(200).optional(),
  enabled: z.boolean().optional(),
});
export type CreateWebhookRequest = z.infer<typeof CreateWebhookRequest>;

export const UpdateWebhookRequest = CreateWebhookRequest.partial().strict();
export type UpdateWebhookRequest = z.infer<typeof UpdateWebhookRequest>;

export const Webhook = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(NotificationEvent),
  agents: z.array(z.string()).nullable(),
  format: z.enum(["json", "slack"]),
  enabled: z.boolean(),
  createdAt: z.string(),
  createdBy: z.string(),
});
export type Webhook = z.infer<typeof Webhook>;

/** `POST /api/webhooks` → 201: the secret is shown this once. */
export const CreateWebhookResponse = z.object({ webhook: Webhook, secret: z.string() });
export type CreateWebhookResponse = z.infer<typeof CreateWebhookResponse>;
export const WebhooksResponse = z.object({ webhooks: z.array(Webhook) });
export type WebhooksResponse = z.infer<typeof WebhooksResponse>;

/** The body of every delivery (`format: "json"`). `data.link` deep-links to the run in the designer. */
export const NotificationBody = z.object({
  id: z.string(),
  type: NotificationEvent,
  createdAt: z.string(),
  data: z.record(z.string(), z.unknown()),
});
export type NotificationBody = z.infer<typeof NotificationBody>;

/** One attempt at delivering one notification. */
export const WebhookDelivery = z.object({
  id: z.string(),
  webhookId: z.string(),
  notificationId: z.string(),
  type: NotificationEvent,
  attempt: z.int().positive(),
  attemptedAt: z.string(),
  /** `delivered`; `retrying` (a network error, 5xx, 408 or 429); `failed` (another 4xx, or 24 h passed). */
  status: z.enum(["delivered", "retrying", "failed"]),
  responseCode: z.int().nullable(),
  latencyMs: z.number().nonnegative().nullable(),
  error: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;
export const WebhookDeliveriesResponse = z.object({ deliveries: z.array(WebhookDelivery) });
export type WebhookDeliveriesResponse = z.infer<typeof WebhookDeliveriesResponse>;

/** `GET /api/webhooks/:id/deliveries?limit=`: the newest attempts first (default 100, at most 500). */
export const WebhookDeliveriesQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
export type WebhookDeliveriesQuery = z.infer<typeof WebhookDeliveriesQuery>;

/** `POST /api/webhooks/:id/test` → 200: the test notification's first attempt (its retries follow as any). */
export const TestWebhookResponse = z.object({ delivery: WebhookDelivery });
export type TestWebhookResponse = z.infer<typeof TestWebhookResponse>;
