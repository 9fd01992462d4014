import type { ErrorRequestHandler } from "express";
import { ApiError, isWireError } from "../shared/api-error.js";
import type { Logger } from "../shared/logger.js";

/**
 * Maps a thrown error to the API's answer: an `ApiError` with one of the API's codes as it is (a store's
 * conflict or not_found, a refused LLM endpoint too); any other error is logged and answered 500 without detail.
 */
export function toApiError(error: unknown): ApiError {
  if (isWireError(error)) return error;
  const parserError = error as { type?: string; status?: number; limit?: number; charset?: string };
  switch (parserError.type) {
    case "entity.too.large":
      return new ApiError(
        "payload_too_large",
        `The request body is larger than ${parserError.limit} bytes.`,
        {
          limit: parserError.limit,
        },
      );
    case "entity.parse.failed":
      return new ApiError("invalid_json", "The request body is not valid JSON.");
    case "encoding.unsupported":
    case "charset.unsupported":
      return new ApiError("unsupported_media_type", "Send the body as UTF-8 JSON.");
    case "request.aborted":
      return new ApiError("bad_request", "The request was aborted.");
  }
  if (typeof parserError.status === "number" && parserError.status >= 400 && parserError.status < 500) {
    return new ApiError("bad_request", "The request could not be read.");
  }
  return new ApiError("internal", "Something went wrong on the server; the error is in its log.");
}

/** The last Express middleware: every error leaves as `{code, message, details}`. */
export function createErrorHandler(logger: Logger): ErrorRequestHandler {
  return (error, request, response, _next) => {
    const apiError = toApiError(error);
    if (apiError.code === "internal") {
      logger.error("request failed", {
        method: request.method,
        path: request.path,
        error: String((error as Error)?.stack ?? error),
      });
    }
    if (response.headersSent) return;
    response.status(apiError.status).json(apiError.toBody());
  };
}
