import { ShadowRequest, type ShadowReportsResponse } from "@waddle/protocol";
import { Router } from "express";
import { z } from "zod";
import { actorOf } from "../access/actor.js";
import type { ShadowService } from "../releases/shadow/shadow-service.js";
import { AgentIdParam, parseRequest } from "./validate-request.js";

const ReportParams = z.strictObject({ id: AgentIdParam.shape.id, reportId: z.string().min(1).max(64) });

/**
 * Shadow comparisons (issue 32): `POST /api/agents/:id/shadow` replays the baseline channel's recent runs
 * against a candidate version and answers the stored report — 201, or 200 when there was nothing to
 * replay (zero cases; its note says why); `GET` lists the agent's reports, newest first, without cases;
 * `GET …/shadow/:reportId` reads one.
 */
export function createShadowRoutes(options: { shadows: ShadowService }): Router {
  const { shadows } = options;
  const router = Router();

  router.post("/agents/:id/shadow", async (request, response) => {
    const { id } = parseRequest(AgentIdParam, request.params, "params");
    const body = parseRequest(ShadowRequest, request.body ?? {}, "body");
    // A caller that goes away stops the replay: its cases' model calls are not worth making for no one.
    const gone = new AbortController();
    response.on("close", () => {
      if (!response.writableFinished) gone.abort(new Error("the caller went away"));
    });
    const report = await shadows.create({
      agentId: id,
      request: body,
      createdBy: actorOf(response).name,
      signal: gone.signal,
    });
    response.status(report.cases.length === 0 ? 200 : 201).json(report);
  });

  router.get("/agents/:id/shadow", async (request, response) => {
    const { id } = parseRequest(AgentIdParam, request.params, "params");
    const body: ShadowReportsResponse = { reports: await shadows.list(id) };
    response.json(body);
  });

  router.get("/agents/:id/shadow/:reportId", async (request, response) => {
    const { id, reportId } = parseRequest(ReportParams, request.params, "params");
    response.json(await shadows.get(id, reportId));
  });

  return router;
}
