import type { ErrorRequestHandler, Response } from "express";
import type { ApiError } from "../../shared/api-error.js";
import { toApiError } from "../../http/error-handler.js";
import type { Logger } from "../../shared/logger.js";

/** OpenAI's error body: what every OpenAI client reads. */
export interface OpenAiErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

/** The codes OpenAI itself uses for the same cases, where one exists. */
const OPENAI_CODES: Partial<Record<ApiError["code"], string>> = {
  unauthorized: "invalid_api_key",
  not_found: "not_found",
  payload_too_large: "request_too_large",
};

/** An API error in OpenAI's shape; `details.param` and `details.openAiCode` name the field and code. */
export function getOpenAiErrorBody(error: ApiError): OpenAiErrorBody {
  const details = (error.details ?? {}) as {
    param?: unknown;
    openAiCode?: unknown;
    issues?: { path?: unknown }[];
  };
  const issuePath = details.issues?.[0]?.path;
  const param =
    typeof details.param === "string"
      ? details.param
      : typeof issuePath === "string" && issuePath !== "$"
        ? issuePath.replace(/^\$\.?/, "")
        : null;
  const code =
    typeof details.openAiCode === "string" ? details.openAiCode : (OPENAI_CODES[error.code] ?? error.code);
  const type =
    error.status >= 500
      ? "server_error"
      : error.status === 429
        ? "rate_limit_error"
        : "invalid_request_error";
  return { error: { message: error.message, type, param, code } };
}

/** Sends an error as OpenAI does; `x-should-retry: false` for a server error that retrying would repeat. */
export function sendOpenAiError(
  response: Response,
  error: ApiError,
  extra: Record<string, unknown> = {},
): void {
  if (error.status >= 500) response.setHeader("x-should-retry", "false");
  response.status(error.status).json({ ...getOpenAiErrorBody(error), ...extra });
}

/** Errors of `/v1` (and of the app's Host guard for it) in OpenAI's shape. */
export function createOpenAiErrorHandler(logger: Logger): ErrorRequestHandler {
  return (error, request, response, _next) => {
    const apiError = toApiError(error);
    if (apiError.code === "internal") {
      logger.error("openai-compatible request failed", {
        method: request.method,
        path: request.path,
        error: String((error as Error)?.stack ?? error),
      });
    }
    if (response.headersSent) {
      if (!response.writableEnded) response.end();
      return;
    }
    sendOpenAiError(response, apiError);
  };
}
