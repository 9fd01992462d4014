/**
 * Every error code the planner package raises. Add codes here (additively) when a new module needs one;
 * subclasses with their own literal unions (`LlmError`, `CatalogError`) pass them as the type parameter.
 */
export const PLANNER_ERROR_CODES = [
  // catalog and options
  "invalid_catalog",
  "invalid_options",
  "unresolved_impl",
  // LLM replies and clients
  "unparseable_action",
  "answer_schema_failed",
  "invalid_action",
  "truncated_reply",
  "llm_failed",
  "script_exhausted",
  // tools
  "tool_failed",
  "tool_timeout",
  "invalid_tool_output",
  "invalid_usage_report",
  "cancelled",
  // run control
  "resume_unavailable",
  "unknown_resume_token",
  "resume_token_in_use",
  "invalid_resume",
  "invalid_state",
  "invalid_fork",
  "subagent_paused",
  // guards (docs/guides/guardrails.md)
  "guard_blocked",
  "internal_error",
] as const;
export type PlannerErrorCode = (typeof PLANNER_ERROR_CODES)[number];

export interface PlannerErrorOptions {
  details?: Record<string, unknown>;
  cause?: unknown;
}

/** What crosses a wire: never a stack. */
export interface PlannerErrorJson {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

/**
 * Base class of every error the planner package throws: a literal `code`, a message that says what to fix,
 * and optional structured `details`.
 */
export class PlannerError<Code extends string = PlannerErrorCode> extends Error {
  readonly code: Code;
  readonly details?: Record<string, unknown>;

  constructor(code: Code, message: string, options: PlannerErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "PlannerError";
    this.code = code;
    if (options.details !== undefined) this.details = options.details;
  }

  /** `{code, message, details}` only. */
  toJSON(): PlannerErrorJson {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }
}

/** True for any `PlannerError` (or subclass), optionally with one of the given codes. */
export function isPlannerError(value: unknown, ...codes: readonly string[]): value is PlannerError<string> {
  return value instanceof PlannerError && (codes.length === 0 || codes.includes(value.code));
}
