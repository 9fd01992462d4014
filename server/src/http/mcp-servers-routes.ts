import type { McpServersResponse } from "@waddle/protocol";
import { Router } from "express";
import type { McpClientManager } from "../mcp-client/mcp-client-manager.js";

/**
 * `GET /api/mcp/servers`: the MCP servers of `WADDLE_MCP_SERVERS` with their status and tools. Servers not
 * connected yet (or that failed or exited) are connected first, so the answer shows what a call would meet.
 */
export function createMcpServersRoutes(options: { mcp?: McpClientManager }): Router {
  const router = Router();
  router.get("/servers", async (_request, response) => {
    const body: McpServersResponse = { servers: options.mcp ? await options.mcp.listServers() : [] };
    response.json(body);
  });
  return router;
}
