import type { ApiErrorCode } from "@waddle/protocol";

/** Codes the server sends, plus what can go wrong before an answer arrives or when it is malformed. */
export type ApiClientErrorCode = ApiErrorCode | "network_error" | "invalid_response";

/** A failed API call: the server's `{code, message, details}` and the HTTP status (0 when none). */
export class ApiError extends Error {
  constructor(
    readonly code: ApiClientErrorCode | (string & {}),
    message: string,
    readonly status: number,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** True for an ApiError with this code. */
export function isApiError(error: unknown, code?: ApiClientErrorCode): error is ApiError {
  return error instanceof ApiError && (code === undefined || error.code === code);
}

/** A message for any failure, for toasts. */
export function getErrorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
