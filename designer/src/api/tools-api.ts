import {
  A2aCardResponse,
  HealthResponse,
  McpServersResponse,
  ToolsResponse,
  ToolTestResponse,
  type A2aCardSummary,
  type McpServerInfo,
  type ToolInfo,
  type ToolTestRequest,
} from "@waddle/protocol";
import type { ApiRequester } from "./api-requester.js";

/** The server itself and where tools come from: health, module tools, MCP servers, A2A cards, a tool's trial call. */
export function createToolsApi(http: ApiRequester) {
  return {
    async health(): Promise<HealthResponse> {
      return http.json("GET", "/api/health", HealthResponse);
    },

    async listTools(): Promise<ToolInfo[]> {
      return (await http.json("GET", "/api/tools", ToolsResponse)).tools;
    },

    /** Calls one tool once through the server's executor (`POST /api/tools/test`). */
    async testTool(body: ToolTestRequest): Promise<ToolTestResponse> {
      return http.json("POST", "/api/tools/test", ToolTestResponse, body);
    },

    /** The server's MCP servers (`WADDLE_MCP_SERVERS`) with their status and tools; it connects them first. */
    async listMcpServers(): Promise<McpServerInfo[]> {
      return (await http.json("GET", "/api/mcp/servers", McpServersResponse)).servers;
    },

    /** A remote A2A agent's card, read by the server through its http allow-list (`POST /api/a2a/card`). */
    async readA2aCard(url: string): Promise<A2aCardSummary> {
      return (await http.json("POST", "/api/a2a/card", A2aCardResponse, { url })).card;
    },
  };
}

export type ToolsApi = ReturnType<typeof createToolsApi>;
