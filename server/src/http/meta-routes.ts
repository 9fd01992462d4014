import { agentSpecJsonSchema, type HealthResponse, type ToolsResponse } from "@waddle/protocol";
import { Router } from "express";
import type { ToolRegistry } from "../tools/tool-registry.js";

/** `/api/health`, `/api/tools` and `/api/schema/agent-spec.json`. */
export function createMetaRoutes(options: {
  registry: ToolRegistry;
  version: string;
  offline: boolean;
  authRequired: boolean;
}): Router {
  const router = Router();
  router.get("/health", (_request, response) => {
    const body: HealthResponse = {
      ok: true,
      version: options.version,
      offline: options.offline,
      authRequired: options.authRequired,
    };
    response.json(body);
  });
  router.get("/tools", (_request, response) => {
    const body: ToolsResponse = { tools: options.registry.list() };
    response.json(body);
  });
  router.get("/schema/agent-spec.json", (_request, response) => {
    response.type("application/schema+json").send(JSON.stringify(agentSpecJsonSchema));
  });
  return router;
}
