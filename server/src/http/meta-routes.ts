import { agentSpecJsonSchema, type HealthResponse, type ToolsResponse } from "@waddle/protocol";
import { Router } from "express";
import type { ToolRegistry } from "../tools/tool-registry.js";

/** Whether each outside part the server needs answers (PostgreSQL, Redis); absent parts are not listed. */
export type PartsHealth = () => Promise<Record<string, "up" | "down">>;

/** `/api/health`, `/api/tools` and `/api/schema/agent-spec.json`. */
export function createMetaRoutes(options: {
  registry: ToolRegistry;
  version: string;
  offline: boolean;
  authRequired: boolean;
  /** With outside parts: `parts` in the answer, and 503 with `ok: false` while one is down. */
  health?: PartsHealth;
}): Router {
  const router = Router();
  router.get("/health", async (_request, response) => {
    const parts = options.health ? await options.health() : undefined;
    const ok = parts === undefined || Object.values(parts).every((state) => state === "up");
    const body: HealthResponse & { parts?: Record<string, "up" | "down"> } = {
      ok,
      version: options.version,
      offline: options.offline,
      authRequired: options.authRequired,
      ...(parts ? { parts } : {}),
    };
    response.status(ok ? 200 : 503).json(body);
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
