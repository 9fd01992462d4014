import type { HostAllowList } from "../tools/host-allow-list.js";
import { requestPinned } from "../tools/pinned-request.js";
import { resolveAllowedAddress, type HostLookup } from "../tools/resolve-allowed-address.js";

/** The `fetch` the MCP SDK's Streamable HTTP transport takes. */
export type McpFetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/**
 * A fetch for Streamable HTTP MCP servers that follows the http tools' rules: every request's host is
 * checked against `WADDLE_HTTP_ALLOW` and its address as http tools check it (a private address only when
 * the list names it), and the connection goes to the address that was checked. Redirects are not followed
 * here (the SDK follows same-origin ones through this fetch again, so they are checked too).
 */
export function createPinnedFetch(options: { allowList: HostAllowList; lookup: HostLookup }): McpFetch {
  return async (input, init = {}) => {
    const url = new URL(String(input));
    const target = await resolveAllowedAddress(url, options);
    const body = init.body;
    if (body !== undefined && body !== null && typeof body !== "string") {
      throw new TypeError("MCP requests send JSON text bodies only.");
    }
    return requestPinned(
      url,
      {
        method: init.method ?? "GET",
        headers: Object.fromEntries(new Headers(init.headers)),
        ...(typeof body === "string" ? { body } : {}),
        signal: init.signal ?? new AbortController().signal,
      },
      target,
    );
  };
}
