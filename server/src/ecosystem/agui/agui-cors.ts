import type { Request, RequestHandler, Response } from "express";
import { readBearer } from "../../access/access-guard.js";
import {
  getAllowedRequestHeaders,
  createCors,
  createOriginGuard,
  isAllowedOrigin,
} from "../../http/security.js";
import { isOriginAllowed } from "../../public/check-allowed-origins.js";
import {
  checkChatOrigin,
  setPublicCorsHeaders,
  type ExtraCorsHeaders,
} from "../../public/public-chat-gate.js";
import { getAgentIdOf } from "../../releases/resolve-agent-name.js";
import type { StoredPublicChat } from "../../store/public/public-chat-store.js";
import type { WaddleStore } from "../../store/waddle-store.js";
import { PUBLISHABLE_KEY_PREFIX } from "./agui-publishable-key.js";

/** What a page calling AG-UI with a publishable key sends and reads beyond the public routes' headers. */
export const AGUI_PUBLIC_CORS: ExtraCorsHeaders = { allow: ["accept"], expose: ["x-waddle-run-id"] };

/**
 * CORS of `/agui` (the app's own CORS skips it, as it skips the public routes). A publishable key's call
 * answers only to its chat's `allowedOrigins` (`checkPublishableOrigin`, once the key is known), as the
 * public routes do; every other call gets `WADDLE_CORS_ORIGIN`'s CORS and origin guard, as before. A
 * preflight carries no key: it gets the public chat's answer when the path's agent has an enabled chat
 * that allows the page's origin, else `WADDLE_CORS_ORIGIN`'s.
 */
export function createAguiCors(options: {
  store: WaddleStore;
  corsOrigin?: string | undefined;
}): RequestHandler {
  const cors = createCors(options.corsOrigin);
  const originGuard = createOriginGuard(options.corsOrigin);
  return (request, response, next) => {
    if (request.method === "OPTIONS") {
      answerChatPreflight(options, request, response).then((answered) => {
        if (!answered) cors(request, response, next);
      }, next);
      return;
    }
    // A publishable key's origin is its chat's to allow: checked once the key is (createAuthenticate).
    if (readBearer(request.headers.authorization)?.startsWith(PUBLISHABLE_KEY_PREFIX)) return next();
    cors(request, response, (error?: unknown) =>
      error === undefined ? originGuard(request, response, next) : next(error),
    );
  };
}

/** A publishable key's call from a page: CORS headers for its chat's allowed origins, 403 for any other. */
export function checkPublishableOrigin(request: Request, response: Response, chat: StoredPublicChat): void {
  checkChatOrigin({ request, response, chat, extra: AGUI_PUBLIC_CORS });
}

/** True when it answered the preflight for the agent's public chat (204 with its CORS headers). */
async function answerChatPreflight(
  options: { store: WaddleStore; corsOrigin?: string | undefined },
  request: Request,
  response: Response,
): Promise<boolean> {
  const origin = request.headers.origin;
  if (origin === undefined || isAllowedOrigin({ origin, host: request.headers.host })) return false;
  const name = decodePathSegment(request.path.split("/")[1] ?? "");
  if (name === undefined || name === "") return false;
  const chat = await options.store.publicChat.chats.get(getAgentIdOf(name, "@"));
  if (!chat?.settings.enabled || !isOriginAllowed(chat.settings.allowedOrigins, origin)) return false;
  // The designer's own origin may also be listed: its clients keep the headers they send elsewhere.
  const requested = request.headers["access-control-request-headers"];
  const allow = [
    ...(AGUI_PUBLIC_CORS.allow ?? []),
    ...(origin === options.corsOrigin ? getAllowedRequestHeaders(requested) : []),
  ];
  setPublicCorsHeaders(response, origin, { ...AGUI_PUBLIC_CORS, allow });
  response.status(204).end();
  return true;
}

function decodePathSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
