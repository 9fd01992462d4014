import type { Request, RequestHandler, Response } from "express";
import {
  A2A_VERSION_HEADER,
  Extensions,
  formatSSEErrorEvent,
  formatSSEEvent,
  HTTP_EXTENSION_HEADER,
  SSE_HEADERS,
} from "@a2a-js/sdk";
import {
  A2A_LEGACY_PROTOCOL_VERSION,
  LEGACY_HTTP_EXTENSION_HEADER,
  LEGACY_METHOD_TASKS_RESUBSCRIBE,
} from "@a2a-js/sdk/compat/v0_3";
import { LegacyJsonRpcTransportHandler } from "@a2a-js/sdk/compat/v0_3/server";
import { ContentTypeNotSupportedError } from "@a2a-js/sdk/errors";
import {
  defaultServerCallContextBuilder,
  JsonRpcTransportHandler,
  UnauthenticatedUser,
  validateVersion,
  type A2ARequestHandler,
} from "@a2a-js/sdk/server";
import type { Logger } from "../../shared/logger.js";

const INTERNAL_ERROR = -32603;

interface JsonRpcError {
  code: number;
  message: string;
}
type Envelope = { jsonrpc: "2.0"; id?: unknown; error?: JsonRpcError; result?: unknown };

/**
 * POST `/` of an agent's A2A JSON-RPC endpoint: what the SDK's `jsonRpcHandler` (`@a2a-js/sdk/server/express`)
 * does, with the SDK's own transport handlers (v1.0, and v0.3 when no `A2A-Version` or 0.3 is sent), but
 * reporting to the server's logger where the SDK's handler writes `console.error` for every error it
 * answers and takes no logger. A client's error (unknown task, a message on a working task, an unsupported
 * version) is `debug`; a server fault (JSON-RPC -32603) is `error`. The body is parsed already (a2a-routes).
 */
export function createA2aJsonRpcHandler(options: {
  requestHandler: A2ARequestHandler;
  logger: Logger;
  agentId: string;
}): RequestHandler {
  const { requestHandler, logger, agentId } = options;
  const current = new JsonRpcTransportHandler(requestHandler);
  const legacy = new LegacyJsonRpcTransportHandler(requestHandler);

  const report = (when: string, request: Request, error: unknown, answered: JsonRpcError) => {
    const fields = {
      agentId,
      method: methodOf(request),
      code: answered.code,
      error: error instanceof Error ? error.message : String(error),
      when,
    };
    if (answered.code === INTERNAL_ERROR) {
      logger.error("A2A request failed", {
        ...fields,
        ...(error instanceof Error && error.stack ? { stack: error.stack } : {}),
      });
    } else logger.debug("A2A request refused", fields);
  };

  return async (request: Request, response: Response) => {
    const id = idOf(request);
    const contentType = request.header("content-type");
    if (contentType && contentType.split(";", 1)[0]!.trim().toLowerCase() !== "application/json") {
      const refused = new ContentTypeNotSupportedError(
        `Unsupported Content-Type "${contentType}"; expected application/json.`,
      );
      const error = JsonRpcTransportHandler.mapToJSONRPCError(refused);
      report("content-type", request, refused, error);
      response.status(200).json({ jsonrpc: "2.0", id: null, error });
      return;
    }
    const useLegacy =
      (request.header(A2A_VERSION_HEADER) || A2A_LEGACY_PROTOCOL_VERSION) === A2A_LEGACY_PROTOCOL_VERSION;
    const mapToError = (error: unknown): JsonRpcError =>
      useLegacy
        ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError(error)
        : JsonRpcTransportHandler.mapToJSONRPCError(error);
    try {
      const context = defaultServerCallContextBuilder({
        extensions: Extensions.parseServiceParameter(
          useLegacy
            ? (request.header(LEGACY_HTTP_EXTENSION_HEADER) ?? request.header(HTTP_EXTENSION_HEADER))
            : request.header(HTTP_EXTENSION_HEADER),
        ),
        user: new UnauthenticatedUser(),
        headers: request.headers,
        requestedVersion: request.header(A2A_VERSION_HEADER) || undefined,
      });
      validateVersion(context.requestedVersion, await requestHandler.getAgentCard(), "JSONRPC");
      const body = request.body as Record<string, unknown>;
      const answer = await (useLegacy ? legacy.handle(body, context) : current.handle(body, context));
      if (context.activatedExtensions) {
        response.setHeader(
          useLegacy ? LEGACY_HTTP_EXTENSION_HEADER : HTTP_EXTENSION_HEADER,
          Array.from(context.activatedExtensions),
        );
      }
      if (!isStream(answer)) {
        const error = (answer as Envelope).error;
        // The transport handlers answer most refusals themselves, without throwing: report those too.
        if (error) report("request", request, error.message, error);
        response.status(200).json(answer);
        return;
      }
      const iterator = answer[Symbol.asyncIterator]();
      // v0.3 resubscribe always streams; anything else answers a refusal before its first event as JSON.
      let first: IteratorResult<unknown> | undefined;
      if (!(useLegacy && methodOf(request) === LEGACY_METHOD_TASKS_RESUBSCRIBE)) {
        try {
          first = await iterator.next();
        } catch (error) {
          const mapped = mapToError(error);
          report("before the stream", request, error, mapped);
          response.status(200).json({ jsonrpc: "2.0", id, error: mapped });
          return;
        }
      }
      for (const [name, value] of Object.entries(SSE_HEADERS)) response.setHeader(name, value);
      response.flushHeaders();
      try {
        if (first && !first.done) response.write(formatSSEEvent(first.value));
        if (!first?.done) {
          for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
            response.write(formatSSEEvent(next.value));
          }
        }
      } catch (error) {
        const mapped = mapToError(error);
        report("during the stream", request, error, mapped);
        if (!response.writableEnded)
          response.write(formatSSEErrorEvent({ jsonrpc: "2.0", id, error: mapped }));
      } finally {
        if (!response.writableEnded) response.end();
      }
    } catch (error) {
      const mapped = mapToError(error);
      report("request", request, error, mapped);
      if (!response.headersSent) {
        response
          .status(mapped.code === INTERNAL_ERROR ? 500 : 200)
          .json({ jsonrpc: "2.0", id, error: mapped });
      } else if (!response.writableEnded) response.end();
    }
  };
}

function isStream(value: unknown): value is AsyncGenerator<unknown, void, undefined> {
  return typeof (value as { [Symbol.asyncIterator]?: unknown } | null)?.[Symbol.asyncIterator] === "function";
}

function methodOf(request: Request): string {
  const method = (request.body as { method?: unknown } | undefined)?.method;
  return typeof method === "string" ? method.slice(0, 100) : "";
}

/** The request's id as the SDK's handler answers it (`id || null`). */
function idOf(request: Request): unknown {
  const id = (request.body as { id?: unknown } | undefined)?.id;
  return id || null;
}
