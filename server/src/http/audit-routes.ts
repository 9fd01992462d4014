import { AuditQuery, type AuditResponse } from "@waddle/protocol";
import { Router } from "express";
import { actorOf } from "../access/actor.js";
import { ApiError } from "../shared/api-error.js";
import type { AuditStore } from "../store/audit/audit-store.js";
import { parseRequest } from "./validate-request.js";

/**
 * `GET /api/audit?since=&actor=&action=&limit=`: the audit log, newest first, for admins only. There is
 * no route that changes or deletes it.
 */
export function createAuditRoutes(options: { audit: AuditStore }): Router {
  const router = Router();
  router.get("/audit", async (request, response) => {
    if (actorOf(response).role !== "admin") {
      throw new ApiError("forbidden", "Only an admin key may read the audit log.", {
        permission: "audit:read",
      });
    }
    const query = parseRequest(AuditQuery, request.query, "query");
    const body: AuditResponse = {
      entries: await options.audit.list({
        limit: query.limit,
        ...(query.since ? { since: query.since } : {}),
        ...(query.actor ? { actor: query.actor } : {}),
        ...(query.action ? { action: query.action } : {}),
      }),
    };
    response.json(body);
  });
  return router;
}
