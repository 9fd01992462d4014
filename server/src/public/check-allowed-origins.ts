import { ANY_ORIGIN } from "@waddle/protocol";
import { ApiError } from "../shared/api-error.js";

/** One refused entry of `allowedOrigins`, as a 400's `details.issues` lists it. */
interface OriginIssue {
  path: string;
  message: string;
  code: "invalid_origin";
}

/** The origin an entry stands for (lower-cased scheme and host, a port only when not the default). */
function toOrigin(entry: string): string | undefined {
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    return undefined;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
  if (url.username || url.password) return undefined;
  return url.origin;
}

/**
 * Checks `allowedOrigins`: each entry must be an origin as browsers send it (`https://example.com`,
 * `http://localhost:5173`: scheme http or https, host, optional port; no path, query, fragment or trailing
 * slash), or `*` with `allowAnyOrigin: true`. Answers the entries lower-cased, without repeats; a 400
 * `validation_failed` naming every refused entry otherwise.
 */
export function checkAllowedOrigins(entries: readonly string[], allowAnyOrigin: boolean): string[] {
  const issues: OriginIssue[] = [];
  const origins: string[] = [];
  entries.forEach((entry, index) => {
    const path = `$.allowedOrigins[${index}]`;
    if (entry === ANY_ORIGIN) {
      if (allowAnyOrigin) origins.push(ANY_ORIGIN);
      else
        issues.push({
          path,
          message: `"*" lets any site embed the chat: send allowAnyOrigin: true with it to confirm, or list the sites' origins.`,
          code: "invalid_origin",
        });
      return;
    }
    const origin = toOrigin(entry);
    if (origin === undefined || origin !== entry.toLowerCase()) {
      const shown = JSON.stringify(entry.slice(0, 100));
      issues.push({
        path,
        message:
          origin === undefined
            ? `${shown} is not an origin: write the scheme (http or https), the host and the port if any, such as https://example.com.`
            : `${shown} is not an origin (no path, query or trailing slash): write ${origin}.`,
        code: "invalid_origin",
      });
      return;
    }
    if (!origins.includes(origin)) origins.push(origin);
  });
  const first = issues[0];
  if (first) {
    const more = issues.length > 1 ? ` (${issues.length - 1} more in details.issues)` : "";
    throw new ApiError(
      "validation_failed",
      `Fix allowedOrigins[${first.path.match(/\d+/)![0]}]: ${first.message}${more}`,
      { where: "body", issues },
    );
  }
  return origins;
}

/** True when the chat answers a page on `origin` (`*` answers any). */
export function isOriginAllowed(allowedOrigins: readonly string[], origin: string): boolean {
  return allowedOrigins.includes(ANY_ORIGIN) || allowedOrigins.includes(origin.toLowerCase());
}
