import { BlockList, isIP } from "node:net";

/**
 * Addresses an http tool must not reach unless the allow-list names them: unspecified, loopback, private,
 * shared (CGNAT), link-local (cloud metadata lives at 169.254.169.254), unique-local, multicast and
 * reserved ranges, and the IPv6 prefixes that embed an IPv4 address of any kind (NAT64, 6to4, Teredo,
 * IPv4-compatible). IPv4-mapped IPv6 (::ffff:a.b.c.d) is checked against the IPv4 ranges by `BlockList`.
 */
const PRIVATE_RANGES: readonly [string, number, "ipv4" | "ipv6"][] = [
  ["0.0.0.0", 8, "ipv4"],
  ["10.0.0.0", 8, "ipv4"],
  ["100.64.0.0", 10, "ipv4"],
  ["127.0.0.0", 8, "ipv4"],
  ["169.254.0.0", 16, "ipv4"],
  ["172.16.0.0", 12, "ipv4"],
  ["192.0.0.0", 24, "ipv4"],
  ["192.168.0.0", 16, "ipv4"],
  ["198.18.0.0", 15, "ipv4"],
  ["224.0.0.0", 4, "ipv4"],
  ["240.0.0.0", 4, "ipv4"],
  ["::", 96, "ipv6"],
  ["64:ff9b::", 96, "ipv6"],
  ["64:ff9b:1::", 48, "ipv6"],
  ["2001::", 32, "ipv6"],
  ["2002::", 16, "ipv6"],
  ["fc00::", 7, "ipv6"],
  ["fe80::", 10, "ipv6"],
  ["fec0::", 10, "ipv6"],
  ["ff00::", 8, "ipv6"],
];

const privateAddresses = new BlockList();
for (const [network, prefix, family] of PRIVATE_RANGES) privateAddresses.addSubnet(network, prefix, family);

/**
 * An IP address in one canonical form (IPv4 dotted quad, IPv6 compressed lower case, no brackets), or
 * undefined for anything else. Decimal, octal and hex IPv4 forms (2130706433, 0x7f.1, 0177.0.0.1) become
 * dotted quads, as the URL parser reads them.
 */
export function toCanonicalAddress(text: string): string | undefined {
  const bare = text.trim().replace(/^\[|\]$/g, "");
  if (bare === "") return undefined;
  let hostname: string;
  try {
    hostname = new URL(`http://${bare.includes(":") ? `[${bare}]` : bare}/`).hostname;
  } catch {
    return undefined;
  }
  const canonical = hostname.replace(/^\[|\]$/g, "");
  return isIP(canonical) === 0 ? undefined : canonical;
}

/** True for an address in a private, loopback, link-local, unique-local, unspecified or reserved range. */
export function isPrivateAddress(address: string): boolean {
  const canonical = toCanonicalAddress(address);
  if (canonical === undefined) return false;
  return privateAddresses.check(canonical, isIP(canonical) === 6 ? "ipv6" : "ipv4");
}
