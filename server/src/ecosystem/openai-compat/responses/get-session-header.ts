import { ApiError } from "../../../shared/api-error.js";

const SESSION_ID = /^ses_[A-Za-z0-9_-]{1,80}$/;

/** The session a request names in `x-waddle-session-id`, checked; undefined when absent. */
export function getSessionHeader(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined || text.trim() === "") return undefined;
  const id = text.trim();
  if (!SESSION_ID.test(id)) {
    throw new ApiError("bad_request", "x-waddle-session-id must be a session id such as ses_4f9c2a1b.", {
      param: "x-waddle-session-id",
    });
  }
  return id;
}
