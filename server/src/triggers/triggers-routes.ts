import {
  CreateTriggerRequest,
  TriggerId,
  UpdateTriggerRequest,
  type TriggerFiresResponse,
  type TriggersResponse,
} from "@waddle/protocol";
import { Router } from "express";
import { z } from "zod";
import { actorOf } from "../access/actor.js";
import { audit, getArgsDiff } from "../access/audit-trail.js";
import { AgentIdParam, parseRequest } from "../http/validate-request.js";
import type { TriggerService } from "./trigger-service.js";

const TriggerParams = z.strictObject({ id: AgentIdParam.shape.id, triggerId: TriggerId });
const FiresQuery = z.strictObject({ limit: z.coerce.number().int().min(1).max(200).default(50) });

/**
 * Triggers (issue 34): `/api/agents/:id/triggers` (create, list), `/:triggerId` (change, delete) and
 * `/:triggerId/fires`. Creating, changing and deleting are an editor's, and audited.
 */
export function createTriggersRoutes(options: { triggers: TriggerService }): Router {
  const { triggers } = options;
  const router = Router();

  router.post("/agents/:id/triggers", async (request, response) => {
    const { id } = parseRequest(AgentIdParam, request.params, "params");
    const body = parseRequest(CreateTriggerRequest, request.body, "body");
    const created = await triggers.create(id, body, actorOf(response).name);
    const { trigger } = created;
    await audit(response, {
      action: "trigger.created",
      target: { type: "trigger", id: trigger.id },
      details: { agentId: id, kind: trigger.kind, enabled: trigger.enabled },
    });
    response.status(201).json(created);
  });

  router.get("/agents/:id/triggers", async (request, response) => {
    const { id } = parseRequest(AgentIdParam, request.params, "params");
    const body: TriggersResponse = { triggers: await triggers.list(id) };
    response.json(body);
  });

  router.patch("/agents/:id/triggers/:triggerId", async (request, response) => {
    const { id, triggerId } = parseRequest(TriggerParams, request.params, "params");
    const body = parseRequest(UpdateTriggerRequest, request.body, "body");
    const { before, trigger } = await triggers.update(id, triggerId, body);
    const { nextFires: _before, ...was } = { nextFires: undefined, ...before };
    const { nextFires: _after, ...now } = { nextFires: undefined, ...trigger };
    await audit(response, {
      action: "trigger.updated",
      target: { type: "trigger", id: triggerId },
      details: {
        agentId: id,
        kind: trigger.kind,
        changes: getArgsDiff(was, now).filter((c) => c.field !== "updatedAt"),
      },
    });
    response.json({ trigger });
  });

  router.delete("/agents/:id/triggers/:triggerId", async (request, response) => {
    const { id, triggerId } = parseRequest(TriggerParams, request.params, "params");
    const trigger = await triggers.delete(id, triggerId);
    await audit(response, {
      action: "trigger.deleted",
      target: { type: "trigger", id: triggerId },
      details: { agentId: id, kind: trigger.kind },
    });
    response.status(204).end();
  });

  router.get("/agents/:id/triggers/:triggerId/fires", async (request, response) => {
    const { id, triggerId } = parseRequest(TriggerParams, request.params, "params");
    const { limit } = parseRequest(FiresQuery, request.query, "query");
    const body: TriggerFiresResponse = { fires: await triggers.listFires(id, triggerId, limit) };
    response.json(body);
  });

  return router;
}
