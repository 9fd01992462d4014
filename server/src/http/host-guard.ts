import { ServerResponse, type IncomingMessage, type Server as HttpServer } from "node:http";
import type { Duplex } from "node:stream";
import type { RequestHandler } from "express";
import { ApiError } from "../shared/api-error.js";

/** The names a server without a token answers to, each with the port it listens on. */
const LOOPBACK_NAMES = ["127.0.0.1", "localhost", "[::1]"] as const;

/**
 * True when a `Host` header names this server on loopback: 127.0.0.1, localhost or [::1] with `port`, the
 * port the connection came in on (a browser leaves the port out only for 80).
 */
export function isLoopbackHost(host: string | undefined, port: number | undefined): boolean {
  if (host === undefined || port === undefined) return false;
  const value = host.trim().toLowerCase();
  return LOOPBACK_NAMES.some((name) => value === `${name}:${port}` || (port === 80 && value === name));
}

/** Why a request for another host name is refused, and what to do instead. */
export function getHostRefusal(host: string | undefined, port: number | undefined): string {
  const shown = JSON.stringify((host ?? "").slice(0, 100));
  return (
    `Host ${shown} is not this server's address: without WADDLE_TOKEN, Waddle only answers requests for ` +
    `127.0.0.1:${port}, localhost:${port} or [::1]:${port} (a guard against DNS rebinding). Open ` +
    `http://127.0.0.1:${port}, or set WADDLE_TOKEN to serve other host names.`
  );
}

/**
 * Without a token the server trusts whoever can reach 127.0.0.1, so a page whose own name resolves to
 * 127.0.0.1 (DNS rebinding) must not pass as same-origin: every request must be addressed to a loopback
 * name and this port. With a token, the token is the guard and any name may be used.
 */
export function createHostGuard(token: string | undefined): RequestHandler {
  return (request, _response, next) => {
    const port = request.socket.localPort;
    if (token || isLoopbackHost(request.headers.host, port)) return next();
    next(new ApiError("forbidden", getHostRefusal(request.headers.host, port)));
  };
}

/** The 403 `{code, message}` body for a request to another host name, as JSON text. */
function getRefusalBody(request: IncomingMessage): string {
  const refusal = new ApiError("forbidden", getHostRefusal(request.headers.host, request.socket.localPort));
  return JSON.stringify(refusal.toBody());
}

function isRefused(request: IncomingMessage, token: string | undefined): boolean {
  return !token && !isLoopbackHost(request.headers.host, request.socket.localPort);
}

/**
 * The same check for socket.io, which answers its own paths before Express sees them: an engine.io
 * middleware for polling requests, and a first `upgrade` listener for WebSocket handshakes (engine.io would
 * answer those 400; this answers 403 with the same `{code, message}` before it looks at them).
 */
export function guardSocketHosts(options: {
  httpServer: HttpServer;
  engine: {
    use(middleware: (request: IncomingMessage, response: ServerResponse, next: () => void) => void): void;
  };
  token: string | undefined;
}): void {
  const { token } = options;
  options.engine.use((request, response, next) => {
    if (!isRefused(request, token)) return next();
    // A WebSocket handshake was answered by the upgrade listener below; this answers polling.
    if (response instanceof ServerResponse) {
      response.writeHead(403, { "content-type": "application/json" }).end(getRefusalBody(request));
    }
  });
  options.httpServer.prependListener("upgrade", (request: IncomingMessage, socket: Duplex) => {
    if (!isRefused(request, token)) return;
    const body = getRefusalBody(request);
    socket.end(
      "HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Type: application/json\r\n" +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  });
}
