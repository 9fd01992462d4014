import type { ErrorRequestHandler } from "express";
import type { ApiErrorCode } from "@waddle/protocol";
import { ApiError, isWireError } from "../shared/api-error.js";
import type { Logger } from "../shared/logger.js";

/** Errors the public routes made for visitors: said as they are. */
const SAFE = new WeakSet<Error>();
/** Codes only the reading of the visitor's own request gives (its body, its size, its rate). */
const SAFE_CODES: ReadonlySet<string> = new Set([
  "validation_failed",
  "invalid_json",
  "payload_too_large",
  "unsupported_media_type",
  "rate_limited",
]);

/** An error for a visitor: its message and details are theirs to read. */
export function publicError(code: ApiErrorCode, message: string, details?: unknown): ApiError {
  const error = new ApiError(code, message, details);
  SAFE.add(error);
  return error;
}

/** The one answer to an unknown or disabled chat, a wrong or revoked key, another visitor's session. */
export function publicNotFound(): ApiError {
  return publicError(
    "not_found",
    "Nothing here: the chat may be off or its address changed. Ask the site's owner for the current link.",
  );
}

/**
 * Keeps what the designer's API would say out of the visitor's answers: a refusal from deeper down (a
 * session's conflict with its record in `details`, a channel's name, an LLM endpoint the server refuses)
 * becomes a plain one of the same kind, and is logged as it was. Errors that are no API error go on to
 * the app's handler (a 500 without detail).
 */
export function createPublicErrorHandler(logger: Logger): ErrorRequestHandler {
  return (error, request, _response, next) => {
    if (!isWireError(error) || SAFE.has(error) || SAFE_CODES.has(error.code)) return next(error);
    logger.info("public chat request refused", {
      path: request.path,
      code: error.code,
      error: error.message,
    });
    if (error.status === 404) return next(publicNotFound());
    if (error.status === 409) {
      const closed = (error.details as { reason?: unknown } | undefined)?.reason === "session_closed";
      return next(
        closed
          ? publicError("invalid_state", "This conversation was closed: start a new one.", {
              reason: "closed",
            })
          : publicError(
              "invalid_state",
              "The last message is still being answered: send yours once it has its answer.",
              { reason: "busy" },
            ),
      );
    }
    next(publicError("internal", "The agent cannot answer right now: try again later."));
  };
}
