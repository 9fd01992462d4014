import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";
import { LlmError } from "../../errors/llm-error.js";
import { parseRetryAfterMs } from "./llm-retry.js";
import type { ChatReply } from "./openai-reply.js";
import { findParamRefusal, type ParamRefusal } from "./param-drop-memory.js";
import { REDACTED } from "../../secrets/redact-text.js";

/** What the client knew about one attempt when it failed. */
export interface AttemptFailureContext {
  model: string;
  /** Host of the base URL only: a URL may carry credentials in its user-info part. */
  host: string;
  /** The variable that holds the key, named in messages about authentication. */
  keyVariable: string;
  /** Removed from every message; never put in details. */
  secret: string;
  body: Readonly<Record<string, unknown>>;
  reply: ChatReply;
  cancelled: boolean;
  timedOut: boolean;
  timeoutMs: number;
}

/** One failed attempt, classified: the error to raise, and whether (and when) to try again. */
export interface AttemptFailure {
  error: LlmError;
  retryable: boolean;
  retryAfterMs?: number;
  /** Set for a 400 naming a parameter the client may leave out. */
  refusal?: ParamRefusal;
}

/** Turns whatever an attempt threw into an `LlmError`, with the API key scrubbed from every message. */
export function classifyAttemptFailure(error: unknown, context: AttemptFailureContext): AttemptFailure {
  const where = `${context.model} at ${context.host}`;
  const partial = context.reply.deltas > 0;
  if (context.cancelled || (error instanceof APIUserAbortError && !context.timedOut)) {
    return fail("cancelled", `The call to ${where} was cancelled.`, { partial });
  }
  if (context.timedOut || error instanceof APIConnectionTimeoutError) {
    if (partial)
      return interrupted("went silent for longer than the timeout", { timeoutMs: context.timeoutMs });
    const message = `${where} did not answer within ${context.timeoutMs} ms; raise llm.timeoutMs if it is slow.`;
    return { error: create("timeout", message, { timeoutMs: context.timeoutMs }), retryable: true };
  }
  if (error instanceof APIError && error.status !== undefined) return fromStatus(error, error.status);
  if (partial) return interrupted(`broke off: ${errorText(error)}`, {});
  if (error instanceof APIConnectionError || error instanceof TypeError) {
    const message = `Could not reach ${where}: ${errorText(error)}. Check llm.baseUrl (or OPENAI_BASE_URL).`;
    return { error: create("network", message, {}, error), retryable: true };
  }
  if (error instanceof APIError || error instanceof SyntaxError) {
    return fail("bad_response", `${where} sent a reply the client could not read: ${errorText(error)}`, {});
  }
  return {
    error: create("network", `The call to ${where} failed: ${errorText(error)}`, {}, error),
    retryable: false,
  };

  function fromStatus(apiError: APIError, status: number): AttemptFailure {
    const details = { status, ...(apiError.requestID ? { requestId: apiError.requestID } : {}) };
    const text = errorText(apiError);
    if (status === 429) {
      const retryAfterMs = parseRetryAfterMs(apiError.headers);
      const message = `${where} is rate limiting requests (HTTP 429): ${text}`;
      const failure: AttemptFailure = {
        error: create("rate_limited", message, {
          ...details,
          ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
        }),
        retryable: true,
      };
      if (retryAfterMs !== undefined) failure.retryAfterMs = retryAfterMs;
      return failure;
    }
    const failure: AttemptFailure = {
      error: create(
        "http_error",
        `${where} refused the request (HTTP ${status}): ${text}${hint(status)}`,
        details,
      ),
      retryable: status >= 500 || status === 408 || status === 409,
    };
    if (status === 400 || status === 422) {
      const refusal = findParamRefusal({ param: apiError.param, message: text, body: context.body });
      if (refusal !== undefined) failure.refusal = refusal;
    }
    return failure;
  }

  function hint(status: number): string {
    if (status === 401 || status === 403) return `. Check the key in ${context.keyVariable}.`;
    if (status === 404) return ". Check llm.model and llm.baseUrl.";
    return "";
  }

  function interrupted(why: string, extra: Record<string, unknown>): AttemptFailure {
    const message = `The reply stream from ${where} ${why} after ${context.reply.content.length} characters.`;
    const details = {
      ...extra,
      partialContent: context.reply.content,
      ...(context.reply.reasoning === "" ? {} : { partialReasoning: context.reply.reasoning }),
    };
    return { error: create("stream_interrupted", message, details, error), retryable: false };
  }

  function fail(
    code: "cancelled" | "bad_response",
    message: string,
    extra: Record<string, unknown>,
  ): AttemptFailure {
    return { error: create(code, message, extra), retryable: false };
  }

  function create(
    code: ConstructorParameters<typeof LlmError>[0],
    message: string,
    details: Record<string, unknown>,
    cause?: unknown,
  ): LlmError {
    const safe = redactSecret(message, context.secret);
    const scrubbedDetails = JSON.parse(redactSecret(JSON.stringify(details), context.secret)) as Record<
      string,
      unknown
    >;
    return new LlmError(code, safe, {
      details: { provider: "openai", model: context.model, ...scrubbedDetails },
      ...(cause === undefined ? {} : { cause: new Error(redactSecret(errorText(cause), context.secret)) }),
    });
  }
}

function errorText(error: unknown): string {
  if (error instanceof APIError) {
    const body = error.error as { message?: unknown } | undefined;
    if (typeof body?.message === "string") return body.message;
  }
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? ` (${error.cause.message})` : "";
    return `${error.message}${cause}`;
  }
  return String(error);
}

/** Removes the key, and anything shaped like an OpenAI-style key that an endpoint echoes back. */
export function redactSecret(text: string, secret: string): string {
  let result = text;
  if (secret.length >= 4) result = result.split(secret).join(REDACTED);
  return result.replace(/\bsk-[A-Za-z0-9_*.-]{3,}/g, `sk-${REDACTED}`);
}
