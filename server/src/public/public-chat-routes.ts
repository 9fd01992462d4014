import {
  PUBLIC_MAX_MESSAGE_CHARS,
  PRODUCTION_CHANNEL,
  protoSafeReviver,
  PublicFeedbackRequest,
  PublicTurnRequest,
  TERMINAL_RUN_STATUSES,
  type PublicChatConfig,
  type PublicSessionCreated,
  type PublicStreamEvent,
  type SessionRecord,
} from "@waddle/protocol";
import express, { Router, type Request, type Response } from "express";
import { z } from "zod";
import { readBearer } from "../access/access-guard.js";
import type { RateLimits } from "../access/rate-limits.js";
import { SseWriter } from "../http/sse-writer.js";
import { requireJsonBody } from "../http/security.js";
import { SessionId } from "../http/sessions-routes.js";
import { parseRequest } from "../http/validate-request.js";
import type { RunEventHub } from "../runs/run-event-hub.js";
import type { SessionService } from "../sessions/session-service.js";
import type { SessionTurns } from "../sessions/session-turns.js";
import type { Logger } from "../shared/logger.js";
import type { StoredPublicChat } from "../store/public/public-chat-store.js";
import type { WaddleStore } from "../store/waddle-store.js";
import { checkPublicTurn } from "./check-public-turn.js";
import { getPublicTranscript } from "./get-public-transcript.js";
import { limitPublicWork } from "./limit-public-work.js";
import { chatOf, createPublicChatGate, readVisitor, requireVisitor } from "./public-chat-gate.js";
import { createVisitorToken } from "./public-credentials.js";
import { createPublicErrorHandler, publicError, publicNotFound } from "./public-errors.js";
import { streamPublicTurn } from "./stream-public-turn.js";

export interface PublicChatRoutesOptions {
  store: WaddleStore;
  hub: RunEventHub;
  sessions: SessionService;
  turns: SessionTurns;
  limits: RateLimits;
  logger: Logger;
  /** How often a stream waiting on held background results reads its session again (default 1 s). */
  pollMs?: number;
}

/** `POST …/sessions` takes no body, or an empty object. */
const NewSessionBody = z.strictObject({}).optional();

/**
 * The public chat's routes, mounted at `/public` (issue 33): `GET :publicId/config`, `POST …/sessions`,
 * `GET …/sessions/:id`, `POST …/sessions/:id/turns` (SSE), `GET …/sessions/:id/stream` (SSE) and
 * `POST …/sessions/:id/feedback`. Every one passes the chat's gate (404, origin, publishable key); those of
 * a session need its visitor's token, and answer 404 for a session of anyone else.
 */
export function createPublicChatRoutes(options: PublicChatRoutesOptions): Router {
  const { store, sessions, turns, limits } = options;
  const router = Router();
  router.use("/:publicId", createPublicChatGate({ store }));
  router.use(requireJsonBody);
  router.use(express.json({ limit: "64kb", reviver: protoSafeReviver, strict: false }));

  router.get("/:publicId/config", (_request, response) => {
    const { settings } = chatOf(response);
    const config: PublicChatConfig = {
      title: settings.title,
      welcome: settings.welcome ?? null,
      starters: settings.starters ?? [],
      theme: { accent: settings.theme?.accent ?? null, logoUrl: settings.theme?.logoUrl ?? null },
      showSteps: settings.showSteps,
      maxTurns: settings.maxTurns ?? null,
      maxMessageChars: PUBLIC_MAX_MESSAGE_CHARS,
    };
    response.json(config);
  });

  router.post("/:publicId/sessions", async (request, response) => {
    const chat = chatOf(response);
    parseRequest(NewSessionBody, request.body, "body");
    const known = readVisitor(request, response);
    await limitPublicWork({ limits, chat, visitorId: known, response });
    const visitor =
      known === undefined
        ? createVisitorToken(chat.visitorSecret, chat.publicId)
        : { visitorId: known, token: readBearer(request.headers.authorization)! };
    const { channel } = chat.settings;
    const record = await sessions.create({
      agentId: chat.agentId,
      ...(channel === undefined || channel === PRODUCTION_CHANNEL ? {} : { channel }),
    });
    await store.publicChat.visitors.add({
      sessionId: record.id,
      publicId: chat.publicId,
      agentId: chat.agentId,
      visitorId: visitor.visitorId,
      createdAt: record.createdAt,
    });
    const body: PublicSessionCreated = { sessionId: record.id, visitorToken: visitor.token };
    response.status(201).json(body);
  });

  /** The visitor's own session (the last turn brought up to its run), or 404. */
  const getOwnSession = async (request: Request, response: Response): Promise<SessionRecord> => {
    const chat = chatOf(response);
    const visitorId = requireVisitor(request, response);
    const id = String(request.params["id"]);
    const owner = SessionId.safeParse(id).success ? await store.publicChat.visitors.get(id) : undefined;
    if (owner?.publicId !== chat.publicId || owner.visitorId !== visitorId) throw publicNotFound();
    return turns.reconcile(id);
  };

  router.get("/:publicId/sessions/:id", async (request, response) => {
    const record = await getOwnSession(request, response);
    const { settings } = chatOf(response);
    response.json(
      await getPublicTranscript({
        store,
        record,
        showSteps: settings.showSteps,
        maxTurns: settings.maxTurns,
      }),
    );
  });

  router.post("/:publicId/sessions/:id/turns", async (request, response) => {
    const record = await getOwnSession(request, response);
    const chat = chatOf(response);
    const { query } = parseRequest(PublicTurnRequest, request.body, "body");
    checkPublicTurn({ chat, query, turns: record.turns.length });
    const visitorId = requireVisitor(request, response);
    await limitPublicWork({ limits, chat, visitorId, response });
    const started = await turns.start({ sessionId: record.id, query }, { publicId: chat.publicId });
    await respondWithStream(options, response, chat, record.id, started);
  });

  router.get("/:publicId/sessions/:id/stream", async (request, response) => {
    const record = await getOwnSession(request, response);
    const last = record.turns.at(-1);
    if (!last) throw publicError("not_found", "This conversation has no message yet: send one first.");
    await respondWithStream(options, response, chatOf(response), record.id, last);
  });

  router.post("/:publicId/sessions/:id/feedback", async (request, response) => {
    const record = await getOwnSession(request, response);
    const body = parseRequest(PublicFeedbackRequest, request.body, "body");
    const turn = record.turns.find((entry) => entry.runId === body.runId);
    if (!turn) throw publicError("not_found", "This conversation has no answer with that runId.");
    if (!TERMINAL_RUN_STATUSES.has(turn.status)) {
      throw publicError("invalid_state", "Rate the answer once it has come.", { reason: "not_answered" });
    }
    await store.publicChat.ratings.put({
      runId: turn.runId,
      agentId: record.agentId,
      sessionId: record.id,
      rating: body.rating,
      comment: body.comment ? body.comment : null,
      createdAt: new Date().toISOString(),
    });
    response.status(204).end();
  });

  router.use(() => {
    throw publicNotFound();
  });
  router.use(createPublicErrorHandler(options.logger));
  return router;
}

/** Answers a turn as server-sent events (`event: <type>`, `data: <json>`), following it to its end. */
async function respondWithStream(
  options: PublicChatRoutesOptions,
  response: Response,
  chat: StoredPublicChat,
  sessionId: string,
  turn: { runId: string; turn: number },
): Promise<void> {
  const sse = new SseWriter(response);
  const controller = new AbortController();
  response.once("close", () => controller.abort());
  sse.open();
  const send = (event: PublicStreamEvent) => sse.sendEvent(event.type, event);
  try {
    await streamPublicTurn({
      store: options.store,
      hub: options.hub,
      sessions: options.sessions,
      sessionId,
      turn,
      showSteps: chat.settings.showSteps,
      send,
      signal: controller.signal,
      ...(options.pollMs === undefined ? {} : { pollMs: options.pollMs }),
    });
  } catch (error) {
    options.logger.error("public chat stream failed", { runId: turn.runId, error: String(error) });
    send({ type: "error", code: "internal", message: "The answer could not be followed: reload the page." });
    send({ type: "done", status: "failed" });
  } finally {
    sse.end();
  }
}
