import { PlannerError, type PlannerErrorOptions } from "../../errors/planner-error.js";

/**
 * `invalid_guard_check`: a check's options cannot be used (a `deny_words` regex that does not compile);
 * `guard_scan_limit`: a value had more findings than a scan keeps (its text is not masked: fail closed);
 * `unscannable_value`: a value a scan cannot walk (an object that contains itself);
 * `unknown_guard_check`: a `module` check no `defineGuardCheck` registered; `no_judge`: an `llm` check
 * with no model to ask; `invalid_check_result`: a module check that answered something else than
 * `{pass, findings?, message?, redacted?}`.
 */
export const GUARD_CHECK_ERROR_CODES = [
  "invalid_guard_check",
  "guard_scan_limit",
  "unscannable_value",
  "unknown_guard_check",
  "no_judge",
  "invalid_check_result",
] as const;
export type GuardCheckErrorCode = (typeof GUARD_CHECK_ERROR_CODES)[number];

/** What a check throws when it cannot decide; the guard runner turns it into an `error` verdict (fail closed by default). */
export class GuardCheckError extends PlannerError<GuardCheckErrorCode> {
  constructor(code: GuardCheckErrorCode, message: string, options: PlannerErrorOptions = {}) {
    super(code, message, options);
    this.name = "GuardCheckError";
  }
}
