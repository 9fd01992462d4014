import { PlannerError, type PlannerErrorOptions } from "./planner-error.js";

/** Every way an LLM call can fail, as raised by `OpenAiClient` and `OfflineModel`. */
export const LLM_ERROR_CODES = [
  "missing_api_key",
  "rate_limited",
  "http_error",
  "timeout",
  "cancelled",
  "network",
  "stream_interrupted",
  "bad_response",
  "invalid_request",
] as const;
export type LlmErrorCode = (typeof LLM_ERROR_CODES)[number];

/** Codes worth another attempt of the same request (after a backoff). */
export const RETRYABLE_LLM_ERROR_CODES: ReadonlySet<LlmErrorCode> = new Set([
  "rate_limited",
  "timeout",
  "network",
]);

/**
 * An LLM call that failed. `details` never holds the API key; for `stream_interrupted` it holds the
 * `partialContent` (and `partialReasoning`) received before the stream broke, so the planner can repair.
 */
export class LlmError extends PlannerError<LlmErrorCode> {
  constructor(code: LlmErrorCode, message: string, options: PlannerErrorOptions = {}) {
    super(code, message, options);
    this.name = "LlmError";
  }
}

/** True for an `LlmError`, optionally with one of the given codes. */
export function isLlmError(value: unknown, ...codes: readonly LlmErrorCode[]): value is LlmError {
  return value instanceof LlmError && (codes.length === 0 || codes.includes(value.code));
}
