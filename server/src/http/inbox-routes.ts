import {
  AssignInboxItemRequest,
  InboxQuery,
  SnoozeInboxItemRequest,
  type InboxItemResponse,
  type InboxResponse,
} from "@waddle/protocol";
import { Router } from "express";
import { z } from "zod";
import { actorOf } from "../access/actor.js";
import { audit } from "../access/audit-trail.js";
import type { InboxService } from "../inbox/inbox-service.js";
import { parseRequest } from "./validate-request.js";

const ItemParams = z.strictObject({ itemId: z.string().min(1).max(300) });

/**
 * The approvals inbox (issue 34): `GET /api/inbox` lists what waits for a person across agents (the key's
 * agents only), newest first, a page at a time; `POST /api/inbox/:itemId/assign` and `/snooze` mark an
 * item (404 when nothing waits there for the key). Deciding uses the resume and merge routes.
 */
export function createInboxRoutes(options: { inbox: InboxService }): Router {
  const { inbox } = options;
  const router = Router();

  router.get("/inbox", async (request, response) => {
    const query = parseRequest(InboxQuery, request.query, "query");
    const body: InboxResponse = await inbox.list(actorOf(response), query);
    response.json(body);
  });

  router.post("/inbox/:itemId/assign", async (request, response) => {
    const { itemId } = parseRequest(ItemParams, request.params, "params");
    const { assignee } = parseRequest(AssignInboxItemRequest, request.body, "body");
    const item = await inbox.assign(actorOf(response), itemId, assignee);
    await audit(response, {
      action: "inbox.assigned",
      target: { type: "inbox_item", id: itemId },
      details: { agentId: item.agentId, runId: item.runId, assignee },
    });
    const body: InboxItemResponse = { item };
    response.json(body);
  });

  router.post("/inbox/:itemId/snooze", async (request, response) => {
    const { itemId } = parseRequest(ItemParams, request.params, "params");
    const { until } = parseRequest(SnoozeInboxItemRequest, request.body, "body");
    const item = await inbox.snooze(actorOf(response), itemId, until);
    await audit(response, {
      action: "inbox.snoozed",
      target: { type: "inbox_item", id: itemId },
      details: { agentId: item.agentId, runId: item.runId, until: item.snoozedUntil },
    });
    const body: InboxItemResponse = { item };
    response.json(body);
  });

  return router;
}
