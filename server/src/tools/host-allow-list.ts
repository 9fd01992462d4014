/**
 * The hosts http tools may reach (`WADDLE_HTTP_ALLOW`): exact names (`api.example.com`), wildcards for
 * subdomains (`*.example.com`, which does not match `example.com` itself), optional ports
 * (`127.0.0.1:8080`), and `*` for any host. Empty means no host at all.
 */
export class HostAllowList {
  private readonly entries: { host: string; wildcard: boolean; port?: string }[];

  constructor(entries: readonly string[]) {
    this.entries = entries
      .map((entry) => entry.trim().toLowerCase())
      .filter((entry) => entry !== "")
      .map((entry) => {
        const match = /^(.*?)(?::(\d+))?$/.exec(
          entry.startsWith("[") ? entry : entry.replace(/^https?:\/\//, ""),
        )!;
        const host = match[1]!.replace(/^\[|\]$/g, "");
        return {
          host: host.startsWith("*.") ? host.slice(1) : host,
          wildcard: host.startsWith("*."),
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

  isAllowed(url: URL): boolean {
    const host = url.hostname
      .toLowerCase()
      .replace(/^\[|\]$/g, "")
      .replace(/\.$/, "");
    const port = url.port || (url.protocol === "https:" ? "443" : "80");
    return this.entries.some((entry) => {
      if (entry.port !== undefined && entry.port !== port) return false;
      if (entry.host === "*") return true;
      return entry.wildcard
        ? host.endsWith(entry.host) && host.length > entry.host.length
        : host === entry.host;
    });
  }

  toString(): string {
    return this.entries
      .map((entry) => `${entry.wildcard ? "*" : ""}${entry.host}${entry.port ? `:${entry.port}` : ""}`)
      .join(",");
  }
}
