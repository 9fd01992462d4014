import { lookup as dnsLookup } from "node:dns/promises";
import { isIP } from "node:net";
import type { HostAllowList } from "./host-allow-list.js";
import { isPrivateAddress } from "./private-address.js";
import { ToolExecutionError } from "./tool-execution-error.js";

/** The address an http tool connects to: checked once, then used for the connection (pinned). */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to its addresses (tests inject one that answers what they need). */
export type HostLookup = (hostname: string) => Promise<readonly { address: string; family: number }[]>;

/** The system resolver, every address in the order it gives them. */
export const systemLookup: HostLookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/**
 * Checks a URL an http tool is about to call: its scheme, its host name against the allow-list, and then the
 * address it resolves to, which must be public unless the allow-list names that address itself. Returns the
 * first acceptable address; the caller connects to exactly that one, so a second DNS answer cannot rebind
 * an allowed name to an internal address.
 */
export async function resolveAllowedAddress(
  url: URL,
  options: { allowList: HostAllowList; lookup: HostLookup },
): Promise<ResolvedAddress> {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ToolExecutionError(
      "invalid_url",
      `Only http and https URLs can be called, not ${url.protocol}.`,
    );
  }
  if (!options.allowList.isAllowed(url)) {
    throw new ToolExecutionError(
      "host_not_allowed",
      `Host "${url.host}" is not on the server's allow-list: add it under Allowed hosts on the Credentials page (it counts at once), or to WADDLE_HTTP_ALLOW (comma-separated, "*.example.com" for subdomains; read at start).`,
      false,
      { host: url.host },
    );
  }
  const hostname = url.hostname.replace(/^\[|\]$/g, "");
  const addresses = isIP(hostname)
    ? [{ address: hostname, family: isIP(hostname) }]
    : await resolve(hostname, options.lookup);
  const usable = addresses.find(
    ({ address }) => !isPrivateAddress(address) || options.allowList.isAddressListed(address, url),
  );
  if (usable) return { address: usable.address, family: usable.family === 6 ? 6 : 4 };
  const refused = addresses[0]!.address;
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  const listed = refused.includes(":") ? `[${refused}]:${port}` : `${refused}:${port}`;
  throw new ToolExecutionError(
    "address_not_allowed",
    `${hostname === refused ? refused : `Host "${url.hostname}" resolves to ${refused}, which`} is a private, ` +
      `loopback or link-local address: http tools reach one only when the allow-list (Credentials page or WADDLE_HTTP_ALLOW) lists that address ` +
      `itself (e.g. ${listed}); a name or a wildcard is not enough.`,
    false,
    { host: url.host, address: refused },
  );
}

async function resolve(hostname: string, lookup: HostLookup): Promise<{ address: string; family: number }[]> {
  let addresses: readonly { address: string; family: number }[];
  try {
    addresses = await lookup(hostname);
  } catch (error) {
    throw new ToolExecutionError(
      "http_error",
      `Host "${hostname}" could not be resolved (${(error as { code?: string }).code ?? String(error)}).`,
      true,
    );
  }
  if (addresses.length === 0) {
    throw new ToolExecutionError("http_error", `Host "${hostname}" resolves to no address.`, true);
  }
  return [...addresses];
}
