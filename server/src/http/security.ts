import type { RequestHandler } from "express";
import helmet from "helmet";
import { ApiError } from "../shared/api-error.js";

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

/** Request headers a browser client may send: openai-node's, the MCP SDK's, retries and tracing. */
const ALLOWED_HEADERS = new Set([
  "authorization",
  "content-type",
  "accept",
  "idempotency-key",
  "x-idempotency-key",
  "x-waddle-session-id",
  "mcp-session-id",
  "mcp-protocol-version",
  "last-event-id",
  "traceparent",
  "tracestate",
  "openai-organization",
  "openai-project",
]);
/** Response headers a browser client may read: the run behind an answer, the MCP session. */
const EXPOSED_HEADERS = "x-waddle-run-id, mcp-session-id, www-authenticate";

/** The headers of a preflight's `access-control-request-headers` that Waddle takes, lower-cased. */
export function getAllowedRequestHeaders(requested: string | undefined): string[] {
  const names = (requested ?? "")
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter((name) => ALLOWED_HEADERS.has(name) || /^x-stainless-[a-z0-9-]+$/.test(name));
  return [...new Set(["authorization", "content-type", ...names])];
}

/**
 * CORS for one configured origin only; without `WADDLE_CORS_ORIGIN` no CORS header is ever sent. A preflight
 * gets the headers it asks for that a browser client of `/v1` or `/mcp` sends (openai-node's
 * `x-stainless-*`, the MCP SDK's session and protocol headers, `last-event-id`, idempotency keys,
 * `traceparent`); an answer exposes `x-waddle-run-id` and `mcp-session-id`.
 */
export function createCors(origin: string | undefined): RequestHandler {
  return (request, response, next) => {
    if (!origin || request.headers.origin !== origin) return next();
    response.setHeader("access-control-allow-origin", origin);
    response.setHeader("vary", "Origin");
    if (request.method === "OPTIONS") {
      response.setHeader("access-control-allow-methods", "GET, POST, PUT, PATCH, DELETE, OPTIONS");
      const requested = request.headers["access-control-request-headers"];
      response.setHeader(
        "access-control-allow-headers",
        getAllowedRequestHeaders(Array.isArray(requested) ? requested.join(",") : requested).join(", "),
      );
      response.setHeader("access-control-max-age", "600");
      response.status(204).end();
      return;
    }
    response.setHeader("access-control-expose-headers", EXPOSED_HEADERS);
    next();
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

/** True when a browser's `Origin` is this server itself or the one configured cross-origin client. */
export function isAllowedOrigin(options: {
  origin: string | undefined;
  host: string | undefined;
  corsOrigin?: string;
}): boolean {
  const { origin, host } = options;
  if (!origin) return true; // not a browser, or a same-origin GET
  if (options.corsOrigin && origin === options.corsOrigin) return true;
  try {
    return host !== undefined && new URL(origin).host === host;
  } catch {
    return false;
  }
}

/**
 * Refuses state-changing requests that a page on another origin makes through the user's browser (a bodiless
 * POST such as cancel needs no CORS preflight), unless that origin is `WADDLE_CORS_ORIGIN`.
 */
export function createOriginGuard(corsOrigin: string | undefined): RequestHandler {
  return (request, _response, next) => {
    if (request.method === "GET" || request.method === "HEAD" || request.method === "OPTIONS") return next();
    const allowed = isAllowedOrigin({
      origin: request.headers.origin,
      host: request.headers.host,
      ...(corsOrigin ? { corsOrigin } : {}),
    });
    if (allowed) return next();
    next(
      new ApiError(
        "forbidden",
        "Requests from another origin are refused: set WADDLE_CORS_ORIGIN to allow one.",
      ),
    );
  };
}
