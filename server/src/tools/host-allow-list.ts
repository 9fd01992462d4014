import { toCanonicalAddress } from "./private-address.js";

interface AllowEntry {
  host: string;
  wildcard: boolean;
  port?: string;
}

/**
 * The hosts http tools may reach (`WADDLE_HTTP_ALLOW`): exact names (`api.example.com`), wildcards for
 * subdomains (`*.example.com`, which does not match `example.com` itself), optional ports
 * (`127.0.0.1:8080`), and `*` for any host. Empty means no host at all. IP entries are kept in canonical
 * form, so `2130706433` and `127.0.0.1` are one entry. Private and loopback addresses are reachable only
 * through entries that name the address itself (`isAddressListed`), never through a name or a wildcard.
 */
export class HostAllowList {
  private readonly entries: AllowEntry[];

  constructor(entries: readonly string[]) {
    this.entries = entries
      .map((entry) => entry.trim().toLowerCase())
      .filter((entry) => entry !== "")
      .map((entry) => {
        const match = /^(.*?)(?::(\d+))?$/.exec(
          entry.startsWith("[") ? entry : entry.replace(/^https?:\/\//, ""),
        )!;
        const host = match[1]!.replace(/^\[|\]$/g, "");
        const wildcard = host.startsWith("*.");
        return {
          host: wildcard ? host.slice(1) : (toCanonicalAddress(host) ?? host),
          wildcard,
          ...(match[2] ? { port: match[2] } : {}),
        };
      });
  }

  /** Parses the comma-separated form of `WADDLE_HTTP_ALLOW`. */
  static fromEnv(value: string | undefined): HostAllowList {
    return new HostAllowList((value ?? "").split(","));
  }

  get size(): number {
    return this.entries.length;
  }

  /** True when the URL's host name (and port) is on the list. */
  isAllowed(url: URL): boolean {
    const host = url.hostname
      .toLowerCase()
      .replace(/^\[|\]$/g, "")
      .replace(/\.$/, "");
    const port = getPort(url);
    return this.entries.some((entry) => {
      if (entry.port !== undefined && entry.port !== port) return false;
      if (entry.host === "*") return true;
      return entry.wildcard
        ? host.endsWith(entry.host) && host.length > entry.host.length
        : host === entry.host;
    });
  }

  /** True when an entry names this very address (with the URL's port, or no port): not a name, not `*`. */
  isAddressListed(address: string, url: URL): boolean {
    const canonical = toCanonicalAddress(address);
    if (canonical === undefined) return false;
    const port = getPort(url);
    return this.entries.some(
      (entry) =>
        !entry.wildcard && entry.host === canonical && (entry.port === undefined || entry.port === port),
    );
  }

  toString(): string {
    return this.entries
      .map((entry) => `${entry.wildcard ? "*" : ""}${entry.host}${entry.port ? `:${entry.port}` : ""}`)
      .join(",");
  }
}

function getPort(url: URL): string {
  return url.port || (url.protocol === "https:" ? "443" : "80");
}
