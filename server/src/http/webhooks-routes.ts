import {
  CreateWebhookRequest,
  UpdateWebhookRequest,
  WebhookDeliveriesQuery,
  type CreateWebhookResponse,
  type TestWebhookResponse,
  type Webhook,
  type WebhookDeliveriesResponse,
  type WebhooksResponse,
} from "@waddle/protocol";
import { Router } from "express";
import { z } from "zod";
import { actorOf } from "../access/actor.js";
import { audit } from "../access/audit-trail.js";
import { parseRequest } from "./validate-request.js";
import type { NotificationOutbox } from "../notifications/notification-outbox.js";
import { toWebhook, type WebhookAdmin } from "../notifications/webhook-admin.js";

const WebhookIdParam = z.strictObject({
  id: z.string().regex(/^whk_[0-9a-f]{16}$/, "must be a webhook id such as whk_4f9c2a1b0d3e5a7c"),
});

/**
 * `/api/webhooks` (admin): outgoing notifications. Create (201 with the secret, shown this once), list,
 * read, patch, delete; `POST /:id/test` sends a test notification through the outbox and answers its first
 * attempt; `GET /:id/deliveries` lists the attempts, newest first. Every change is audited, never a secret.
 */
export function createWebhooksRoutes(options: { admin: WebhookAdmin; outbox: NotificationOutbox }): Router {
  const { admin, outbox } = options;
  const router = Router();
  router.post("/webhooks", async (request, response) => {
    const body = parseRequest(CreateWebhookRequest, request.body, "body");
    const created: CreateWebhookResponse = await admin.create(body, actorOf(response));
    await audit(response, {
      action: "webhook.created",
      target: { type: "webhook", id: created.webhook.id },
      details: { url: created.webhook.url, events: created.webhook.events, agents: created.webhook.agents },
    });
    response.status(201).json(created);
  });
  router.get("/webhooks", async (_request, response) => {
    const body: WebhooksResponse = { webhooks: await admin.list(actorOf(response)) };
    response.json(body);
  });
  router.get("/webhooks/:id", async (request, response) => {
    const { id } = parseRequest(WebhookIdParam, request.params, "params");
    const body: Webhook = toWebhook(await admin.get(id, actorOf(response)));
    response.json(body);
  });
  router.patch("/webhooks/:id", async (request, response) => {
    const { id } = parseRequest(WebhookIdParam, request.params, "params");
    const patch = parseRequest(UpdateWebhookRequest, request.body, "body");
    const body: Webhook = await admin.update(id, patch, actorOf(response));
    const { secret, ...changed } = patch;
    await audit(response, {
      action: "webhook.updated",
      target: { type: "webhook", id },
      details: { ...changed, ...(secret === undefined ? {} : { secretReplaced: true }) },
    });
    response.json(body);
  });
  router.delete("/webhooks/:id", async (request, response) => {
    const { id } = parseRequest(WebhookIdParam, request.params, "params");
    await admin.delete(id, actorOf(response));
    await audit(response, { action: "webhook.deleted", target: { type: "webhook", id } });
    response.status(204).end();
  });
  router.post("/webhooks/:id/test", async (request, response) => {
    const { id } = parseRequest(WebhookIdParam, request.params, "params");
    const actor = actorOf(response);
    const webhook = await admin.get(id, actor);
    const body: TestWebhookResponse = { delivery: await outbox.sendTest(webhook, actor.name) };
    response.json(body);
  });
  router.get("/webhooks/:id/deliveries", async (request, response) => {
    const { id } = parseRequest(WebhookIdParam, request.params, "params");
    const { limit } = parseRequest(WebhookDeliveriesQuery, request.query, "query");
    const body: WebhookDeliveriesResponse = {
      deliveries: await admin.listDeliveries(id, actorOf(response), limit),
    };
    response.json(body);
  });
  return router;
}
