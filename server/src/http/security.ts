import type { RequestHandler } from "express";
import helmet from "helmet";
import { ApiError } from "../api-error.js";
import { checkToken, getBearerToken } from "./check-token.js";

/**
 * Security headers with a CSP the designer works under: its own scripts only, inline styles (React Flow
 * positions nodes with style attributes), data/blob images, and same-origin fetch and WebSocket.
 */
export function createSecurityHeaders(): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "blob:"],
        fontSrc: ["'self'", "data:"],
        connectSrc: ["'self'"],
        workerSrc: ["'self'", "blob:"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
      },
    },
    // Waddle usually runs on plain http://127.0.0.1: never pin browsers to https.
    strictTransportSecurity: false,
  });
}

/** CORS for one configured origin only; without `WADDLE_CORS_ORIGIN` no CORS header is ever sent. */
export function createCors(origin: string | undefined): RequestHandler {
  return (request, response, next) => {
    if (!origin || request.headers.origin !== origin) return next();
    response.setHeader("access-control-allow-origin", origin);
    response.setHeader("vary", "Origin");
    if (request.method === "OPTIONS") {
      response.setHeader("access-control-allow-methods", "GET, POST, PUT, DELETE, OPTIONS");
      response.setHeader("access-control-allow-headers", "authorization, content-type");
      response.setHeader("access-control-max-age", "600");
      response.status(204).end();
      return;
    }
    next();
  };
}

/** `Authorization: Bearer <WADDLE_TOKEN>` on every API route but health; nothing when no token is set. */
export function createAuth(token: string | undefined): RequestHandler {
  return (request, _response, next) => {
    if (!token || request.path === "/health") return next();
    const presented = getBearerToken(request.headers.authorization);
    if (checkToken(token, presented)) return next();
    next(
      new ApiError(
        "unauthorized",
        presented === undefined
          ? "This server needs a token: send `Authorization: Bearer <WADDLE_TOKEN>`."
          : "The token is not valid for this server.",
      ),
    );
  };
}

/** Bodies of POST and PUT must be JSON: anything else is a 415 before it is parsed. */
export const requireJsonBody: RequestHandler = (request, _response, next) => {
  const hasBody =
    Number(request.headers["content-length"] ?? "0") > 0 ||
    request.headers["transfer-encoding"] !== undefined;
  if (!hasBody || request.is("application/json") || request.is("+json")) return next();
  next(
    new ApiError("unsupported_media_type", "Send the body as JSON with `Content-Type: application/json`."),
  );
};
