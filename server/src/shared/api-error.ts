import { API_ERROR_CODES, type ApiErrorCode, type ErrorBody } from "@waddle/protocol";

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
  idempotency_key_reused: 422,
  request_in_progress: 409,
  // 400: the one status that the AI SDK, LangChain JS and openai-node all leave alone (docs/guides/openai-endpoints.md).
  run_failed_after_side_effects: 400,
  session_agent_mismatch: 422,
  confirmation_required: 409,
  invalid_agent_version: 422,
  invalid_fork: 422,
  duplicate_case_name: 422,
  channel_moved: 409,
  tests_failed: 409,
  no_previous_release: 409,
  agent_has_releases: 409,
  public_chat_not_configured: 404,
  session_full: 409,
  shadow_report_mismatch: 422,
  missing_fields: 422,
  channel_not_found: 409,
  internal: 500,
};

const API_CODES: ReadonlySet<string> = new Set(API_ERROR_CODES);

/** True for one of the codes the API answers with (`API_ERROR_CODES`). */
export function isApiErrorCode(code: string): code is ApiErrorCode {
  return API_CODES.has(code);
}

/**
 * Base class of every error the server throws: a literal-union `code`, a message that says what to fix,
 * and structured `details`. Its parts narrow the code to their own union (`ConfigError`, `StoreError`,
 * `ToolExecutionError`, `LlmEndpointError`, `DataDirLockedError`). Only `{code, message, details}` crosses
 * the wire, never a stack; an error whose code is not one of the API's answers as `internal`.
 */
export class ApiError<Code extends string = ApiErrorCode> extends Error {
  readonly code: Code;
  readonly details?: unknown;

  constructor(code: Code, message: string, details?: unknown) {
    super(message);
    this.name = "ApiError";
    this.code = code;
    if (details !== undefined) this.details = details;
  }

  /** The HTTP status of the code; 500 for a code that is not one of the API's. */
  get status(): number {
    return isApiErrorCode(this.code) ? STATUS_BY_CODE[this.code] : 500;
  }

  toBody(): ErrorBody {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }
}

/** True for any error of the family (a subclass too), optionally with one of the given codes. */
export function isApiError(value: unknown, ...codes: readonly string[]): value is ApiError<string> {
  return value instanceof ApiError && (codes.length === 0 || codes.includes(value.code));
}

/** True for an error of the family whose code is one of the API's: it answers as it is. */
export function isWireError(value: unknown): value is ApiError {
  return value instanceof ApiError && isApiErrorCode(value.code);
}

/** A short not-found error naming what was looked for. */
export function notFound(what: string, id: string | number): ApiError {
  return new ApiError("not_found", `${what} "${String(id)}" does not exist.`, { id });
}
