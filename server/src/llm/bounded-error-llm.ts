import { LlmError, type LlmClient, type LlmCompleteOptions, type LlmResult } from "@waddle/planner";
import type { SecretRedactor } from "../secrets/secret-redactor.js";

/** Longest message of a failed LLM call that may reach events, tool errors and logs. */
export const MAX_LLM_ERROR_MESSAGE = 300;

/**
 * An error of an LLM call as the server lets it out: secrets scrubbed and the message cut to a short
 * summary. An endpoint's reply body (an internal host's error page, a proxy echoing headers) is quoted in
 * the client's message; it must not travel whole into `run_failed` or a tool error.
 */
export function getBoundedLlmError(error: unknown, redactor: SecretRedactor): unknown {
  if (!(error instanceof Error)) return error;
  const scrubbed = redactor.redactText(error.message);
  const message =
    scrubbed.length > MAX_LLM_ERROR_MESSAGE ? `${scrubbed.slice(0, MAX_LLM_ERROR_MESSAGE - 1)}…` : scrubbed;
  if (message === error.message) return error;
  if (error instanceof LlmError) {
    // Same code and details (status, partial content for a repair); not the cause, which holds the body.
    return new LlmError(error.code, message, error.details ? { details: error.details } : {});
  }
  return new LlmError("bad_response", message);
}

/** Wraps a remote client so that every error it throws is bounded and scrubbed (`getBoundedLlmError`). */
export class BoundedErrorLlm implements LlmClient {
  readonly provider: string;
  readonly model: string;
  readonly offline: boolean;

  constructor(
    private readonly inner: LlmClient,
    private readonly redactor: SecretRedactor,
  ) {
    this.provider = inner.provider;
    this.model = inner.model;
    this.offline = inner.offline === true;
  }

  async complete(options: LlmCompleteOptions): Promise<LlmResult> {
    try {
      return await this.inner.complete(options);
    } catch (error) {
      throw getBoundedLlmError(error, this.redactor);
    }
  }
}
