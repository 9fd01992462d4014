import { randomUUID } from "node:crypto";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest, isJSONRPCRequest } from "@modelcontextprotocol/sdk/types.js";
import express, { Router, type ErrorRequestHandler, type Request, type Response } from "express";
import { ApiError } from "../../shared/api-error.js";
import { toApiError } from "../../http/error-handler.js";
import { checkToken, getBearerToken } from "../../access/check-token.js";
import { createOriginGuard, requireJsonBody } from "../../http/security.js";
import type { Logger } from "../../shared/logger.js";
import { protoSafeReviver } from "@waddle/protocol";
import type { AgentRunner } from "../run-agent.js";
import type { RateLimits } from "../../access/rate-limits.js";
import { actorOf } from "../../access/actor.js";
import { createMcpAgentsServer } from "./create-mcp-agents-server.js";
import { McpSessions, type McpSessionsOptions } from "./mcp-sessions.js";
import type { AccessGuards } from "../../access/access-guard.js";
import { scopeStore } from "../../access/scoped-store.js";
import { getAgentIdOf } from "../../releases/resolve-agent-name.js";

export interface McpRoutesOptions {
  runner: AgentRunner;
  logger: Logger;
  version: string;
  token?: string;
  corsOrigin?: string;
  bodyLimit?: string;
  sessions?: McpSessionsOptions;
  /** Buckets per key and per agent (the tool) on `tools/call`. */
  rateLimits?: RateLimits;
  /** API keys and roles: who calls, and what they may (server/src/access). */
  access?: AccessGuards;
}

/** JSON-RPC's code for an error outside any request: the MCP transport answers these with `id: null`. */
const SERVER_ERROR = -32000;
const PARSE_ERROR = -32700;

/**
 * `/mcp`: the saved agents as MCP tools over Streamable HTTP, one session per client (POST carries
 * requests, DELETE ends the session; GET, the stream for server-initiated messages, is 405 since this
 * server sends none). Behind the same Host and Origin guards as the API, and `WADDLE_TOKEN` when set.
 * Mount both handlers on the path: the error handler also answers the app's Host guard for it.
 */
export function createMcpRoutes(options: McpRoutesOptions): [Router, ErrorRequestHandler] {
  const { logger } = options;
  const sessions = new McpSessions(options.sessions);
  const router = Router();
  router.use(createOriginGuard(options.corsOrigin));
  router.use((request, response, next) => {
    if (options.access) return options.access.authenticate(request, response, next);
    const token = options.token;
    if (!token || checkToken(token, getBearerToken(request.headers.authorization))) return next();
    response.setHeader("www-authenticate", 'Bearer realm="waddle"');
    next(
      new ApiError("unauthorized", "This server needs a token: send `Authorization: Bearer <WADDLE_TOKEN>`."),
    );
  });
  router.use(requireJsonBody);
  router.use(express.json({ limit: options.bodyLimit ?? "1mb", reviver: protoSafeReviver, strict: false }));
  if (options.access) router.use(options.access.authorize);

  // Who opened each session: another key (another scope) finds no such session.
  const owners = new Map<string, string>();
  const ownerOf = (response: Response) => {
    const actor = actorOf(response);
    return actor.keyId ?? actor.kind;
  };
  const isOwner = (sessionId: string, response: Response) =>
    !options.access || owners.get(sessionId) === ownerOf(response);

  router.post("/", async (request, response) => {
    const sessionId = request.header("mcp-session-id");
    if (sessionId !== undefined) {
      const session = sessions.get(sessionId);
      if (!session || !isOwner(sessionId, response)) return sendSessionNotFound(response);
      for (const tool of getCalledTools(request.body)) {
        // `support-triage.staging` counts against `support-triage`'s bucket
        await options.rateLimits
          ?.consume(actorOf(response), getAgentIdOf(tool, "."))
          .catch((error: unknown) => {
            const wait = (error as { retryAfterSeconds?: unknown }).retryAfterSeconds;
            if (typeof wait === "number") response.setHeader("retry-after", wait);
            throw error;
          });
      }
      sessions.trackCalls(sessionId, getCallIds(request.body), response);
      await session.transport.handleRequest(request, response, request.body);
      return;
    }
    if (!isInitializeRequest(request.body)) {
      throw new ApiError(
        "bad_request",
        "Start with an initialize request; later requests need its mcp-session-id.",
      );
    }
    if (!sessions.makeRoom()) {
      throw new ApiError("rate_limited", "Too many MCP sessions are busy: try again when one has ended.");
    }
    const serverUrl = `${request.protocol}://${request.get("host")}`;
    const owner = ownerOf(response);
    const server = createMcpAgentsServer({
      // A key limited to some agents lists and calls only those.
      runner: { ...options.runner, store: scopeStore(options.runner.store, actorOf(response)) },
      logger,
      version: options.version,
      serverUrl,
      tokenRequired: options.token !== undefined,
      getCallSignal: (call) => sessions.getCallSignal(call.sessionId, call.requestId),
    });
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        owners.set(id, owner);
        sessions.add(id, { transport, server });
      },
      onsessionclosed: (id) => {
        owners.delete(id);
        sessions.delete(id);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId === undefined) return;
      owners.delete(transport.sessionId);
      sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(request, response, request.body);
  });

  router.delete("/", async (request, response) => {
    const sessionId = request.header("mcp-session-id") ?? "";
    const session = sessions.get(sessionId);
    if (!session || !isOwner(sessionId, response)) return sendSessionNotFound(response);
    await session.transport.handleRequest(request, response);
  });

  router.get("/", (_request, response) => {
    response.setHeader("allow", "POST, DELETE");
    sendJsonRpcError(response, 405, SERVER_ERROR, "This server sends no messages of its own: use POST.");
  });
  router.use((request) => {
    throw new ApiError(
      "not_found",
      `No MCP route ${request.method} /mcp${request.path}: the endpoint is /mcp.`,
    );
  });
  return [router, createMcpErrorHandler(logger)];
}

/** The tools (agent ids) that the `tools/call` requests in a POST body call. */
function getCalledTools(body: unknown): string[] {
  const messages = Array.isArray(body) ? body : [body];
  return messages
    .filter((message) => isJSONRPCRequest(message) && message.method === "tools/call")
    .map((message) => (message as { params?: { name?: unknown } }).params?.name)
    .map((name) => (typeof name === "string" ? name.slice(0, 200) : "?"));
}

/** The JSON-RPC ids of the `tools/call` requests in a POST body (one message or a batch). */
function getCallIds(body: unknown): (string | number)[] {
  const messages = Array.isArray(body) ? body : [body];
  return messages
    .filter((message) => isJSONRPCRequest(message) && message.method === "tools/call")
    .map((message) => message.id);
}

function sendSessionNotFound(response: Response): void {
  // 404 tells a client to start a new session (the server restarted, or the session was closed).
  sendJsonRpcError(response, 404, SERVER_ERROR, "No such MCP session: initialize a new one.");
}

function sendJsonRpcError(response: Response, status: number, code: number, message: string): void {
  response.status(status).json({ jsonrpc: "2.0", error: { code, message }, id: null });
}

/** Errors of `/mcp` (and of the guards before it) as JSON-RPC errors with the API's HTTP status. */
function createMcpErrorHandler(logger: Logger): ErrorRequestHandler {
  return (error, request: Request, response, _next) => {
    const apiError = toApiError(error);
    if (apiError.code === "internal") {
      logger.error("mcp request failed", {
        method: request.method,
        error: String((error as Error)?.stack ?? error),
      });
    }
    if (response.headersSent) return;
    const code = apiError.code === "invalid_json" ? PARSE_ERROR : SERVER_ERROR;
    response.status(apiError.status).json({
      jsonrpc: "2.0",
      error: {
        code,
        message: apiError.message,
        data: {
          code: apiError.code,
          ...(apiError.details === undefined ? {} : { details: apiError.details }),
        },
      },
      id: null,
    });
  };
}
