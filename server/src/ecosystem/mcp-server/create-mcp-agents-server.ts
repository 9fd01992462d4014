import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { PRODUCTION_CHANNEL, type RunEvent } from "@waddle/protocol";
import { getAgentName, resolveAgentName } from "../../releases/resolve-agent-name.js";
import type { WaddleStore } from "../../store/waddle-store.js";
import { isWireError } from "../../shared/api-error.js";
import type { Logger } from "../../shared/logger.js";
import { getRequestKey, type RequestHeaders } from "../request-key.js";
import type { AgentRunner } from "../run-agent.js";
import { runAgentOnce } from "../run-agent-once.js";
import { getRunOutcome } from "../run-outcome.js";
import { AgentToolArguments, getAgentTool, getAgentToolResult } from "./agent-tools.js";
import { getProgressMessage } from "./get-progress-message.js";

export interface McpAgentsServerOptions {
  runner: AgentRunner;
  logger: Logger;
  version: string;
  /** The server's address as this session's client reached it, for resume instructions. */
  serverUrl: string;
  tokenRequired: boolean;
  /** Aborts when the HTTP request carrying this call went away (see McpSessions.trackCalls). */
  getCallSignal?: (call: { sessionId?: string; requestId: string | number }) => AbortSignal | undefined;
}

/**
 * An MCP server whose tools are the saved agents, read again on every `tools/list` (so agents saved later
 * appear). A call runs the agent as any other run, reports each step as progress when the client sent a
 * `progressToken`, and answers with the answer, or the pause and how to resume it. A client that cancels
 * the call (`notifications/cancelled`) cancels the run. A call sent with an `Idempotency-Key` header runs
 * once: a retry with the same key answers from the first call's run.
 */
export function createMcpAgentsServer(options: McpAgentsServerOptions): McpServer {
  const { runner } = options;
  const mcp = new McpServer(
    { name: "waddle", title: "Waddle agents", version: options.version },
    {
      instructions:
        "Each tool is a saved Waddle agent: call it with {query}. A run that pauses for a person answers " +
        "with the pause and how to resume it; every run is listed in GET /api/runs and shown on the canvas.",
    },
  );
  // The low-level handlers: McpServer's own registry is fixed at registration, the agents are not.
  mcp.server.registerCapabilities({ tools: {} });
  mcp.server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: await listAgentTools(runner.store),
  }));
  mcp.server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const name = request.params.name;
    const resolved = await resolveAgentName(runner.store, name, ".").catch((error: unknown) => {
      if (!isWireError(error) || error.code !== "not_found") throw error;
      throw new McpError(
        ErrorCode.InvalidParams,
        `${error.message} tools/list names the agents and channels.`,
      );
    });
    if (!resolved) {
      throw new McpError(ErrorCode.InvalidParams, `No agent "${name}": tools/list names the agents.`);
    }
    const { agentId, target } = resolved;
    const parsed = AgentToolArguments.safeParse(request.params.arguments ?? {});
    if (!parsed.success) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Call "${agentId}" with {"query": "<what to ask>"}: ${parsed.error.issues[0]?.message ?? "bad arguments"}.`,
      );
    }
    const progressToken = extra._meta?.progressToken;
    let progress = 0;
    const onEvent = (event: RunEvent): void => {
      if (progressToken === undefined) return;
      const message = getProgressMessage(event);
      if (message === undefined) return;
      progress += 1;
      extra
        .sendNotification({ method: "notifications/progress", params: { progressToken, progress, message } })
        .catch(() => undefined); // a client that went away: the call's signal says so
    };
    const disconnected = options.getCallSignal?.({
      ...(extra.sessionId === undefined ? {} : { sessionId: extra.sessionId }),
      requestId: extra.requestId,
    });
    const signal = disconnected ? AbortSignal.any([extra.signal, disconnected]) : extra.signal;
    try {
      // An `Idempotency-Key` on the HTTP request carrying the call: a retried call answers from its run.
      const requestKey = extra.requestInfo
        ? getRequestKey({
            endpoint: "mcp/tools/call",
            headers: extra.requestInfo.headers as RequestHeaders,
            body: { name, arguments: parsed.data },
          })
        : undefined;
      // Only a key says that the client will ask again: a retry count alone is not sent over MCP.
      const keyed = requestKey?.kind === "idempotency" ? requestKey : undefined;
      // Under a key, a client that went away will call again: only `notifications/cancelled` cancels.
      const run = await runAgentOnce(
        runner,
        keyed
          ? { agentId, target, query: parsed.data.query, signal: extra.signal, keepOnAbort: false, onEvent }
          : { agentId, target, query: parsed.data.query, signal, onEvent },
        keyed,
      );
      const outcome = getRunOutcome(run, {
        serverUrl: options.serverUrl,
        tokenRequired: options.tokenRequired,
      });
      return getAgentToolResult(outcome);
    } catch (error) {
      if (!isWireError(error)) throw error;
      if (error.code === "not_found") throw new McpError(ErrorCode.InvalidParams, error.message);
      // A run refused up front (an LLM endpoint the server does not allow, a server shutting down).
      options.logger.info("mcp agent call refused", { agentId, code: error.code });
      return { content: [{ type: "text", text: `${error.code}: ${error.message}` }], isError: true };
    }
  });
  return mcp;
}

/** Each agent as a tool (what production serves), then one `<agent>.<channel>` tool per channel. */
async function listAgentTools(store: WaddleStore): Promise<Tool[]> {
  const tools: Tool[] = [];
  for (const agent of await store.listAgents()) {
    const production = await store.releases.getChannel(agent.id, PRODUCTION_CHANNEL);
    tools.push(getAgentTool(agent, production ? { name: agent.id, version: production.version } : undefined));
    for (const channel of await store.releases.listChannels(agent.id)) {
      const name = getAgentName(agent.id, channel.name, ".");
      tools.push(getAgentTool(agent, { name, version: channel.version, channel: channel.name }));
    }
  }
  return tools;
}
