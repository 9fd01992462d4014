import { protoSafeReviver, type AgentSummary } from "@waddle/protocol";
import express, { Router, type ErrorRequestHandler } from "express";
import { z } from "zod";
import { ApiError } from "../../shared/api-error.js";
import { checkToken, getBearerToken } from "../../access/check-token.js";
import { createOriginGuard, requireJsonBody } from "../../http/security.js";
import { parseRequest } from "../../http/validate-request.js";
import type { Logger } from "../../shared/logger.js";
import { getRequestKey } from "../request-key.js";
import type { AgentRunner } from "../run-agent.js";
import type { RateLimits } from "../../access/rate-limits.js";
import { ChatCompletionRequest } from "./chat-completion-request.js";
import { getChatQuery } from "./get-chat-query.js";
import { getUnsupportedParameter } from "./get-unsupported-parameter.js";
import { getAnswerFormat } from "./get-answer-format.js";
import { createOpenAiErrorHandler } from "./openai-error.js";
import { respondChatCompletion } from "./respond-chat-completion.js";
import { addResponsesRoutes } from "./responses/responses-routes.js";
import { getSessionHeader } from "./responses/get-session-header.js";
import { checkSessionScope } from "./responses/check-session-scope.js";
import { actorOf } from "../../access/actor.js";
import type { AccessGuards } from "../../access/access-guard.js";
import { filterByScope } from "../../access/access-guard.js";
import { getAgentIdOf, getAgentName } from "../../releases/resolve-agent-name.js";
import { modelNotFound, resolveModel } from "./resolve-model.js";
import type { WaddleStore } from "../../store/waddle-store.js";

export interface OpenAiRoutesOptions {
  runner: AgentRunner;
  logger: Logger;
  token?: string;
  corsOrigin?: string;
  bodyLimit?: string;
  /** Buckets per key and per agent (the model) on chat completions and responses. */
  rateLimits?: RateLimits;
  /** API keys and roles: who calls, and what they may (server/src/access). */
  access?: AccessGuards;
}

const ModelParam = z.strictObject({ model: z.string() });

/** An agent as an OpenAI model: its id (or `agent@channel`), and when its latest version was saved. */
function getModel(agent: Pick<AgentSummary, "id" | "updatedAt">, id = agent.id): Record<string, unknown> {
  const saved = Date.parse(agent.updatedAt);
  return {
    id,
    object: "model",
    created: Number.isFinite(saved) ? Math.floor(saved / 1000) : 0,
    owned_by: "waddle",
  };
}

/** Each agent as a model, then one `agent@channel` per channel it has (`agent@production`, `agent@staging`). */
async function listModels(store: WaddleStore, agents: readonly AgentSummary[]) {
  const models: Record<string, unknown>[] = [];
  for (const agent of agents) {
    models.push(getModel(agent));
    for (const channel of await store.releases.listChannels(agent.id)) {
      models.push(getModel(agent, getAgentName(agent.id, channel.name, "@")));
    }
  }
  return models;
}

/**
 * `/v1`: the saved agents as OpenAI-compatible models. `GET /v1/models[/:model]` lists them, `POST
 * /v1/chat/completions` runs one on the chat's last user message, recorded as any other run. Errors in
 * OpenAI's shape; Bearer `WADDLE_TOKEN` when set. Mount both handlers on the path: the error handler also
 * answers the app's Host guard for it.
 */
export function createOpenAiRoutes(options: OpenAiRoutesOptions): [Router, ErrorRequestHandler] {
  const { runner } = options;
  const router = Router();
  router.use(createOriginGuard(options.corsOrigin));
  router.use((request, response, next) => {
    if (options.access) return options.access.authenticate(request, response, next);
    const token = options.token;
    const presented = getBearerToken(request.headers.authorization);
    if (!token || checkToken(token, presented)) return next();
    next(
      new ApiError(
        "unauthorized",
        presented === undefined
          ? "This server needs a token: use WADDLE_TOKEN as the API key (Authorization: Bearer <token>)."
          : "Incorrect API key provided: use this server's WADDLE_TOKEN.",
      ),
    );
  });
  router.use(requireJsonBody);
  router.use(express.json({ limit: options.bodyLimit ?? "1mb", reviver: protoSafeReviver, strict: false }));
  if (options.access) router.use(options.access.authorize);
  if (options.rateLimits) {
    const limitByModel = options.rateLimits.middleware((request) => {
      const model = (request.body as { model?: unknown } | undefined)?.model;
      // `agent@staging` and `agent@7` count against the agent's own bucket
      return typeof model === "string" ? getAgentIdOf(model, "@").slice(0, 200) : undefined;
    });
    // One route each (not an array path): the access table lists routes by their own pattern.
    router.post("/chat/completions", limitByModel);
    router.post("/responses", limitByModel);
  }

  router.get("/models", async (_request, response) => {
    const agents = filterByScope(response, await runner.store.listAgents(), (agent) => agent.id);
    response.json({ object: "list", data: await listModels(runner.store, agents) });
  });

  router.get("/models/:model", async (request, response) => {
    const { model } = parseRequest(ModelParam, request.params, "params");
    const { agentId } = await resolveModel(runner.store, model);
    const latest = await runner.store.getAgent(agentId);
    if (!latest) throw modelNotFound(model);
    response.json(getModel(latest, model));
  });

  router.post("/chat/completions", async (request, response) => {
    const body = parseRequest(ChatCompletionRequest, request.body, "body");
    const unsupported = getUnsupportedParameter(body);
    if (unsupported) throw unsupported;
    const answerSchema = getAnswerFormat(body);
    const { agentId, target } = await resolveModel(runner.store, body.model);
    const chat = getChatQuery(body.messages);
    const sessionId = getSessionHeader(request.headers["x-waddle-session-id"]);
    if (sessionId) {
      await checkSessionScope(runner.store, actorOf(response), {
        sessionId,
        model: agentId,
        param: "x-waddle-session-id",
      });
    }
    const requestKey = getRequestKey({
      endpoint: "v1/chat/completions",
      headers: request.headers,
      body: request.body,
    });
    const controller = new AbortController();
    response.once("close", () => {
      if (!response.writableFinished) controller.abort(new Error("the client went away"));
    });
    await respondChatCompletion({
      runner,
      response,
      agentId,
      model: body.model,
      // a session's turn runs the version the session pinned
      ...(sessionId ? {} : { target }),
      chat,
      stream: body.stream === true,
      includeUsage: body.stream_options?.include_usage === true,
      outcomeOptions: {
        serverUrl: `${request.protocol}://${request.get("host")}`,
        tokenRequired: options.token !== undefined,
      },
      signal: controller.signal,
      ...(answerSchema ? { answerSchema } : {}),
      ...(requestKey ? { requestKey } : {}),
      ...(sessionId ? { sessionId } : {}),
    });
  });

  addResponsesRoutes(router, { runner, token: options.token });

  router.use((request) => {
    throw new ApiError(
      "not_found",
      `No route ${request.method} /v1${request.path}: Waddle serves /v1/models, /v1/chat/completions and /v1/responses.`,
    );
  });
  return [router, createOpenAiErrorHandler(options.logger)];
}
