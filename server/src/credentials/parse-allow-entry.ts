import { isIP } from "node:net";

export type AllowEntryResult = { ok: true; entry: string } | { ok: false; reason: string };

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * An entry of the http allow-list as a person adds it from the browser: a host (`api.example.com`), a
 * wildcard for subdomains (`*.example.com`), an address (`127.0.0.1`, `[::1]`), each with an optional
 * port. Never `*` alone (every host: an operator sets that in WADDLE_HTTP_ALLOW), a scheme or a path.
 * Private and loopback addresses stay reachable only through entries that name the address itself.
 */
export function parseHttpAllowEntry(text: string): AllowEntryResult {
  const entry = text.trim().toLowerCase();
  if (entry === "") return { ok: false, reason: "it is empty" };
  if (entry === "*")
    return {
      ok: false,
      reason: "* allows every host: an operator sets that in WADDLE_HTTP_ALLOW, it cannot be added here",
    };
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(entry))
    return {
      ok: false,
      reason: `give the host without a scheme (${entry.replace(/^[a-z0-9+.-]+:\/\//, "").split("/")[0]})`,
    };
  if (/[/?#@\s]/.test(entry))
    return { ok: false, reason: "give a host or host:port only, without a path, query or user" };
  const bracketed = /^\[([0-9a-f:.]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) {
    if (isIP(bracketed[1]!) !== 6) return { ok: false, reason: `[${bracketed[1]}] is not an IPv6 address` };
    return withPort(`[${bracketed[1]}]`, bracketed[2]);
  }
  if (isIP(entry) === 6) return { ok: true, entry: `[${entry}]` };
  const match = /^(.*?)(?::(\d*))?$/.exec(entry)!;
  const host = match[1]!;
  if (match[2] === "") return { ok: false, reason: "the port after ':' is missing" };
  if (isIP(host) === 4) return withPort(host, match[2]);
  if (/^[\d.]+$/.test(host)) return { ok: false, reason: `${host} is not an IPv4 address` };
  const wildcard = host.startsWith("*.");
  const name = wildcard ? host.slice(2) : host;
  if (name.includes("*"))
    return { ok: false, reason: "a wildcard may only start the host, as in *.example.com" };
  const labels = name.replace(/\.$/, "").split(".");
  if (name.length > 253 || !labels.every((label) => LABEL.test(label)))
    return { ok: false, reason: `${host} is not a host name (letters, digits, '-' and '.')` };
  if (wildcard && labels.length < 2)
    return {
      ok: false,
      reason: `*.${name} would match a whole top-level domain: name the domain, as in *.example.com`,
    };
  return withPort(host.replace(/\.$/, ""), match[2]);
}

/**
 * An entry of the LLM allow-list: an http(s) origin (`http://127.0.0.1:11434`), or a host or host:port,
 * which means https. Kept as the origin, the form `WADDLE_LLM_ALLOW` uses.
 */
export function parseLlmAllowEntry(text: string): AllowEntryResult {
  const entry = text.trim();
  if (entry === "") return { ok: false, reason: "it is empty" };
  if (/^https?:\/\//i.test(entry)) {
    let url: URL;
    try {
      url = new URL(entry);
    } catch {
      return { ok: false, reason: "it is not a URL" };
    }
    if (url.username || url.password)
      return { ok: false, reason: "an endpoint entry never holds a user or password" };
    if (url.hostname.includes("*"))
      return { ok: false, reason: "LLM endpoints take no wildcards: name the host" };
    return { ok: true, entry: url.origin };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(entry))
    return { ok: false, reason: "only http and https endpoints are allowed" };
  const host = parseHttpAllowEntry(entry);
  if (!host.ok) return host;
  if (host.entry.includes("*"))
    return { ok: false, reason: "LLM endpoints take no wildcards: name the host" };
  return { ok: true, entry: new URL(`https://${host.entry}`).origin };
}

function withPort(host: string, port: string | undefined): AllowEntryResult {
  if (port === undefined) return { ok: true, entry: host };
  const number = Number(port);
  if (!Number.isInteger(number) || number < 1 || number > 65_535)
    return { ok: false, reason: `port ${port} is not between 1 and 65535` };
  return { ok: true, entry: `${host}:${number}` };
}
