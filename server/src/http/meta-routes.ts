import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { agentSpecJsonSchema, type HealthResponse, type ToolsResponse } from "@waddle/protocol";
import { Router } from "express";
import { hasActor } from "../access/actor.js";
import type { ToolRegistry } from "../tools/tool-registry.js";

/** apps/cli/bin/waddle.mjs of the checkout this server runs from (the same from src/http and dist/http). */
const CLI_SCRIPT = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../apps/cli/bin/waddle.mjs",
);

/** The CLI script beside this server, when there is one: it is not on npm, so snippets run it by path. */
export function getCliPath(): string | undefined {
  return existsSync(CLI_SCRIPT) ? CLI_SCRIPT : undefined;
}

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
  const cliPath = getCliPath();
  router.get("/health", async (_request, response) => {
    const parts = options.health ? await options.health() : undefined;
    const ok = parts === undefined || Object.values(parts).every((state) => state === "up");
    const body: HealthResponse & { parts?: Record<string, "up" | "down"> } = {
      ok,
      version: options.version,
      offline: options.offline,
      authRequired: options.authRequired,
      // A file path tells an anonymous caller of a server with a token about the machine: only when signed in.
      ...(cliPath && (!options.authRequired || hasActor(response)) ? { cliPath } : {}),
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
