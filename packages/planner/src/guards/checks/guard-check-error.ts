import { PlannerError, type PlannerErrorOptions } from "../../errors/planner-error.js";

/**
 * `invalid_guard_check`: a check's options cannot be used (a `deny_words` regex that does not compile);
 * `guard_scan_limit`: a value had more findings than a scan keeps (its text is not masked: fail closed);
 * `unscannable_value`: a value a scan cannot walk (an object that contains itself).
 */
export const GUARD_CHECK_ERROR_CODES = [
  "invalid_guard_check",
  "guard_scan_limit",
  "unscannable_value",
] as const;
export type GuardCheckErrorCode = (typeof GUARD_CHECK_ERROR_CODES)[number];

/** What a scanning check throws; the guard runner turns it into an `error` verdict (fail closed by default). */
export class GuardCheckError extends PlannerError<GuardCheckErrorCode> {
  constructor(code: GuardCheckErrorCode, message: string, options: PlannerErrorOptions = {}) {
    super(code, message, options);
    this.name = "GuardCheckError";
  }
}
