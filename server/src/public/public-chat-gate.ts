import type { Request, RequestHandler, Response } from "express";
import { readBearer } from "../access/access-guard.js";
import { isAllowedOrigin } from "../http/security.js";
import type { StoredPublicChat } from "../store/public/public-chat-store.js";
import type { WaddleStore } from "../store/waddle-store.js";
import { isOriginAllowed } from "./check-allowed-origins.js";
import { publicError, publicNotFound } from "./public-errors.js";
import { isSameKey, readVisitorToken } from "./public-credentials.js";

/** The header a page sends the chat's publishable key in. */
export const PUBLIC_KEY_HEADER = "x-waddle-public-key";
/** What a page on an allowed origin may send, and read back. */
const ALLOWED_HEADERS = `authorization, content-type, ${PUBLIC_KEY_HEADER}, last-event-id`;
const EXPOSED_HEADERS = "retry-after, www-authenticate";
/** Public ids are made by the server (`pub_` and hex); anything else is no chat. */
const PUBLIC_ID = /^pub_[0-9a-f]{1,64}$/;

/** The chat this request reached (set by the gate). */
export function chatOf(response: Response): StoredPublicChat {
  return response.locals["publicChat"] as StoredPublicChat;
}

/**
 * The gate of every `/public/:publicId/…` route (issue 33), in this order:
 * 1. the chat: unknown, disabled, or its agent gone → 404;
 * 2. the page's origin: a browser's `Origin` that is neither this server (the hosted page) nor in
 *    `allowedOrigins` → 403 with no CORS header; an allowed one gets CORS headers, and a preflight its 204;
 * 3. the publishable key in `x-waddle-public-key`: missing, wrong or rotated → 404 (`GET config` may come
 *    without one: the embed reads it with the public id alone; a key it does send must be current).
 * The global CORS of `WADDLE_CORS_ORIGIN` never answers here (create-app.ts skips these paths).
 */
export function createPublicChatGate(options: { store: WaddleStore }): RequestHandler {
  const { store } = options;
  return (request, response, next) => {
    void (async () => {
      const publicId = String(request.params["publicId"] ?? "");
      const chat = PUBLIC_ID.test(publicId)
        ? await store.publicChat.chats.getByPublicId(publicId)
        : undefined;
      if (!chat?.settings.enabled || !(await store.getAgent(chat.agentId))) return next(publicNotFound());
      checkChatOrigin({ request, response, chat });
      if (request.method === "OPTIONS") {
        response.status(204).end();
        return;
      }
      const key = request.headers[PUBLIC_KEY_HEADER];
      // The config is what the page shows before anyone types (title, welcome, starters, theme): the embed
      // reads it with the public id alone, so a snippet outlives a key rotation. A key sent must be current.
      // (mounted at `/:publicId`, so the path here is what follows it)
      const keyOptional = request.method === "GET" && request.path === "/config";
      const keyMissing = typeof key !== "string" && keyOptional;
      if (!keyMissing && (typeof key !== "string" || !isSameKey(key, chat.publishableKey))) {
        return next(publicNotFound());
      }
      response.locals["publicChat"] = chat;
      next();
    })().catch(next);
  };
}

/** What a surface of the chat besides its routes lets a page send and read too (AG-UI's `accept`, run id). */
export interface ExtraCorsHeaders {
  allow?: readonly string[];
  expose?: readonly string[];
}

/**
 * The page's origin against the chat's `allowedOrigins`, for the public routes and for AG-UI with the
 * chat's publishable key: no `Origin` (not a browser) or this server itself (the hosted page) passes with
 * no CORS header; an allowed origin gets them; any other is a 403 with none.
 */
export function checkChatOrigin(options: {
  request: Request;
  response: Response;
  chat: Pick<StoredPublicChat, "settings">;
  extra?: ExtraCorsHeaders;
}): void {
  const { request, response, chat } = options;
  const origin = request.headers.origin;
  if (origin === undefined || isAllowedOrigin({ origin, host: request.headers.host })) return;
  if (!isOriginAllowed(chat.settings.allowedOrigins, origin)) {
    throw publicError(
      "forbidden",
      "This chat does not answer pages of this site: its owner lists the sites that may embed it.",
    );
  }
  setPublicCorsHeaders(response, origin, options.extra);
}

/** The CORS headers of a public chat's answer to an allowed `origin` (and to its preflight). */
export function setPublicCorsHeaders(response: Response, origin: string, extra: ExtraCorsHeaders = {}): void {
  const join = (base: string, more: readonly string[] = []) =>
    [...new Set([...base.split(", "), ...more])].join(", ");
  response.setHeader("access-control-allow-origin", origin);
  response.setHeader("vary", "Origin");
  response.setHeader("access-control-allow-methods", "GET, POST, OPTIONS");
  response.setHeader("access-control-allow-headers", join(ALLOWED_HEADERS, extra.allow));
  response.setHeader("access-control-expose-headers", join(EXPOSED_HEADERS, extra.expose));
  response.setHeader("access-control-max-age", "600");
}

/**
 * The visitor of `Authorization: Bearer <visitorToken>`: undefined without the header; 401 for a token
 * that is malformed, altered, or signed for another chat.
 */
export function readVisitor(request: Request, response: Response): string | undefined {
  const presented = readBearer(request.headers.authorization);
  if (presented === undefined) return undefined;
  const visitorId =
    presented === null
      ? undefined
      : readVisitorToken(chatOf(response).visitorSecret, chatOf(response).publicId, presented);
  if (visitorId === undefined) {
    response.setHeader("www-authenticate", 'Bearer realm="waddle-public-chat"');
    throw publicError(
      "unauthorized",
      "This visitor token is not valid for this chat: start a new conversation without it to get a new one.",
    );
  }
  return visitorId;
}

/** The visitor of a request that must have one (every route of a session): 401 without a token. */
export function requireVisitor(request: Request, response: Response): string {
  const visitorId = readVisitor(request, response);
  if (visitorId !== undefined) return visitorId;
  response.setHeader("www-authenticate", 'Bearer realm="waddle-public-chat"');
  throw publicError(
    "unauthorized",
    "Send the visitorToken that POST /public/:publicId/sessions answered as `Authorization: Bearer <visitorToken>`.",
  );
}

/**
 * Runs `handler` (the app's `WADDLE_CORS_ORIGIN` CORS) for every path but the public chat's and AG-UI's:
 * those answer CORS to each chat's own `allowedOrigins` (`createPublicChatGate`; AG-UI with a publishable
 * key), never to the designer's origin. AG-UI applies the same handler itself to its other keys.
 */
export function unlessPublicChat(handler: RequestHandler): RequestHandler {
  return (request, response, next) =>
    request.path.startsWith("/public/") || request.path.startsWith("/agui/")
      ? next()
      : handler(request, response, next);
}
