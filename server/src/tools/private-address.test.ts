import { describe, expect, it } from "vitest";
import { isPrivateAddress, toCanonicalAddress } from "./private-address.js";

describe("isPrivateAddress", () => {
  it.each([
    "127.0.0.1",
    "127.8.9.10",
    "0.0.0.0",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "224.0.0.1",
    "255.255.255.255",
    "::",
    "::1",
    "[::1]",
    "fd12:3456::1",
    "fe80::1",
    "ff02::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:10.0.0.1",
    "::127.0.0.1",
    "64:ff9b::7f00:1",
    "2002:7f00:1::",
    "2130706433",
    "0x7f.1",
    "0177.0.0.1",
    "127.1",
    "017700000001",
  ])("%s is private", (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each(["8.8.8.8", "1.1.1.1", "172.32.0.1", "192.169.0.1", "2606:4700::1111", "::ffff:8.8.8.8"])(
    "%s is public",
    (address) => {
      expect(isPrivateAddress(address)).toBe(false);
    },
  );

  it("reads every IPv4 spelling as a dotted quad and IPv6 in its compressed form", () => {
    expect(toCanonicalAddress("2130706433")).toBe("127.0.0.1");
    expect(toCanonicalAddress("[0:0:0:0:0:0:0:1]")).toBe("::1");
    expect(toCanonicalAddress("::FFFF:127.0.0.1")).toBe("::ffff:7f00:1");
    expect(toCanonicalAddress("example.com")).toBeUndefined();
    expect(toCanonicalAddress("")).toBeUndefined();
  });
});
