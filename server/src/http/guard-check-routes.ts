import { GuardSampleRequest } from "@waddle/protocol";
import { Router } from "express";
import { limitWork } from "../access/rate-limits.js";
import type { GuardSampleChecker } from "../guards/guard-sample-checker.js";
import { parseRequest } from "./validate-request.js";

/** An `llm` check calls a model: it counts against the rate limit of the agent it names, as a run does. */
const limitLlmChecks = limitWork((request) => {
  const body = request.body as { agentId?: unknown } | undefined;
  return typeof body?.agentId === "string" ? body.agentId : undefined;
});

/** `POST /api/guards/check`: one guard check on a sample text (the designer's live sample box). */
export function createGuardCheckRoutes(options: { checker: GuardSampleChecker }): Router {
  const router = Router();
  router.post(
    "/check",
    (request, response, next) => {
      const kind = (request.body as { check?: { kind?: unknown } } | undefined)?.check?.kind;
      if (kind === "llm") limitLlmChecks(request, response, next);
      else next();
    },
    async (request, response) => {
      const body = parseRequest(GuardSampleRequest, request.body, "body");
      // A client that goes away (the person typed on) stops the check.
      const controller = new AbortController();
      response.on("close", () => {
        if (!response.writableFinished) controller.abort(new Error("The client went away."));
      });
      response.json(await options.checker(body, controller.signal));
    },
  );
  return router;
}
