import express, {
  Router,
  type Request,
  type RequestHandler,
  type Response,
  type NextFunction,
} from "express";
import { agentCardHandler } from "@a2a-js/sdk/server/express";
import { ApiError } from "../../shared/api-error.js";
import { actorOf } from "../../access/actor.js";
import { RateLimitedError, type RateLimits } from "../../access/rate-limits.js";
import { createOriginGuard } from "../../http/security.js";
import type { SessionTurns } from "../../sessions/session-turns.js";
import type { Logger } from "../../shared/logger.js";
import type { AgentRunner } from "../run-agent.js";
import { getAgentCard } from "./a2a-card.js";
import { createA2aJsonRpcHandler } from "./a2a-json-rpc-handler.js";
import { WaddleAgentExecutor } from "./waddle-agent-executor.js";
import { WaddleRequestHandler } from "./waddle-request-handler.js";
import { WaddleTaskStore } from "./waddle-task-store.js";
import { getAgentIdOf, resolveAgentName } from "../../releases/resolve-agent-name.js";

export interface A2aRoutesOptions {
  runner: AgentRunner & { turns: SessionTurns };
  version: string;
  /** Where the A2A SDK's errors go (refused requests at debug, server faults at error), never the console. */
  logger: Logger;
  /** True when the server needs a key or `WADDLE_TOKEN` (the card then declares a bearer scheme). */
  isAuthRequired?: () => Promise<boolean>;
  /** Buckets per key and per agent on `message/send` and `message/stream`. */
  rateLimits?: RateLimits;
  corsOrigin?: string;
  bodyLimit?: string;
}

/** The methods that start or continue a run, in both protocol generations: rate-limited. */
const STARTS_WORK = new Set(["message/send", "message/stream", "SendMessage", "SendStreamingMessage"]);
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const NOT_PARSED = Symbol("not parsed");

export const AGENT_CARD_PATH = "/.well-known/agent-card.json";
/** Handlers kept per agent version and address; past this many the oldest are dropped. */
const MAX_HANDLERS = 200;

/**
 * `/a2a/<agentId>`: every saved agent as an A2A agent (the official `@a2a-js/sdk`), JSON-RPC v1.0 and
 * v0.3 (the SDK's compatibility layer: a request without `A2A-Version`, or with 0.3, speaks v0.3). The
 * Agent Card at `/a2a/<agentId>/.well-known/agent-card.json` needs no token (it tells a client how to
 * authenticate); JSON-RPC needs a `runner` key (the app's access guards, in front of this router). An
 * unknown agent is 404.
 */
export function createA2aRoutes(options: A2aRoutesOptions): Router {
  const handlers = new Map<string, { rpc: RequestHandler; card: RequestHandler }>();
  const router = Router();
  router.use(createOriginGuard(options.corsOrigin));

  const getHandlers = async (request: Request) => {
    // `/a2a/<agent>` serves production (the latest save without it); `<agent>@staging`, `<agent>@7` name one
    const name = String(request.params.agentId);
    const resolved = await resolveAgentName(options.runner.store, name, "@");
    if (!resolved) throw new ApiError("not_found", `No agent "${name}": see GET /api/agents for the agents.`);
    const { agentId, agent, target } = resolved;
    const url = `${request.protocol}://${request.get("host")}/a2a/${name.split("@").map(encodeURIComponent).join("@")}`;
    const tokenRequired = (await options.isAuthRequired?.()) ?? false;
    const key = JSON.stringify([agentId, agent.version, target.channel, url, tokenRequired]);
    let entry = handlers.get(key);
    if (!entry) {
      const card = getAgentCard(agent.spec, {
        url,
        tokenRequired,
        version: options.version,
      });
      const tasks = new WaddleTaskStore(options.runner.store, agentId);
      const executor = new WaddleAgentExecutor({
        agentId,
        agentVersion: agent.version,
        channel: target.channel,
        runner: options.runner,
      });
      const requestHandler = new WaddleRequestHandler(card, { tasks, runs: options.runner.runs }, executor);
      entry = {
        rpc: createA2aJsonRpcHandler({ requestHandler, logger: options.logger, agentId }),
        card: agentCardHandler({ agentCardProvider: async () => card, legacyCompat: { enabled: true } }),
      };
      if (handlers.size >= MAX_HANDLERS) handlers.delete(handlers.keys().next().value!);
      handlers.set(key, entry);
    }
    return entry;
  };

  router.use("/:agentId", async (request: Request, response: Response, next: NextFunction) => {
    if (request.path === AGENT_CARD_PATH) {
      if (request.method !== "GET" && request.method !== "HEAD") {
        throw new ApiError("bad_request", `${request.method} is not allowed on the Agent Card: GET it.`);
      }
      const { card } = await getHandlers(request);
      request.url = "/";
      return card(request, response, next);
    }
    if (request.path !== "/") {
      throw new ApiError(
        "not_found",
        `No A2A route ${request.method} /a2a${request.originalUrl.slice(4)}: the agent's JSON-RPC endpoint is POST /a2a/<agentId>.`,
      );
    }
    if (request.method !== "POST") {
      throw new ApiError(
        "bad_request",
        `${request.method} is not allowed: A2A JSON-RPC is POST /a2a/<agentId>.`,
      );
    }
    const body = await readJson(request, response, options.bodyLimit);
    const refusal = getEnvelopeError(body);
    if (refusal) {
      response.status(200).json({ jsonrpc: "2.0", id: null, error: refusal });
      return;
    }
    if (options.rateLimits && STARTS_WORK.has((body as { method: string }).method)) {
      await options.rateLimits
        .consume(actorOf(response), getAgentIdOf(String(request.params.agentId), "@"))
        .catch((error: unknown) => {
          if (error instanceof RateLimitedError) response.setHeader("retry-after", error.retryAfterSeconds);
          throw error;
        });
    }
    const { rpc } = await getHandlers(request);
    return rpc(request, response, next);
  });
  return router;
}

/** The body as JSON, or `NOT_PARSED` for a body that is no JSON (parsed once: the SDK's parser skips it then). */
function readJson(request: Request, response: Response, limit = "1mb"): Promise<unknown> {
  return new Promise((resolve) => {
    express.json({ limit, strict: false, type: () => true })(request, response, (error?: unknown) => {
      resolve(error === undefined ? (request.body as unknown) : NOT_PARSED);
    });
  });
}

/**
 * The spec's JSON-RPC refusal of a request that is not one, whatever `A2A-Version` it sends: -32700 for a
 * body that is not JSON, -32600 for JSON that is no JSON-RPC 2.0 request (the SDK would say -32602 or
 * -32601 for some of these, depending on the version).
 */
export function getEnvelopeError(body: unknown): { code: number; message: string } | undefined {
  if (body === NOT_PARSED) return { code: PARSE_ERROR, message: "Invalid JSON payload." };
  const isObject = typeof body === "object" && body !== null && !Array.isArray(body);
  const request = isObject ? (body as Record<string, unknown>) : undefined;
  const id = request?.id;
  const validId = id === undefined || id === null || typeof id === "string" || typeof id === "number";
  if (!request || request.jsonrpc !== "2.0" || typeof request.method !== "string" || !validId) {
    return {
      code: INVALID_REQUEST,
      message:
        'Invalid JSON-RPC request: send one object {"jsonrpc": "2.0", "id", "method": "<name>", "params"} (no batches).',
    };
  }
  return undefined;
}
