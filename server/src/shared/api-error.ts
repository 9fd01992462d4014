import type { ApiErrorCode, ErrorBody } from "@waddle/protocol";

const STATUS_BY_CODE: Readonly<Record<ApiErrorCode, number>> = {
  bad_request: 400,
  invalid_json: 400,
  validation_failed: 400,
  invalid_spec: 422,
  llm_endpoint_not_allowed: 422,
  mcp_server_not_configured: 422,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  invalid_state: 409,
  rate_limited: 429,
  internal: 500,
};

/** The server's one error class: only `{code, message, details}` crosses the wire, never a stack. */
export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ApiErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "ApiError";
    this.status = STATUS_BY_CODE[code];
  }

  toBody(): ErrorBody {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

/** A short not-found error naming what was looked for. */
export function notFound(what: string, id: string | number): ApiError {
  return new ApiError("not_found", `${what} "${String(id)}" does not exist.`, { id });
}
