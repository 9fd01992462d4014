import { describe, expect, it } from "vitest";
import { findEmails } from "./pii-email.js";

const found = (text: string) => findEmails(text).map((span) => text.slice(span.start, span.end));

describe("findEmails", () => {
  it("finds addresses with dots, plus tags and subdomains", () => {
    expect(found("write to john.doe+news@mail.example.co.uk, please")).toEqual([
      "john.doe+news@mail.example.co.uk",
    ]);
    expect(found("<a@b.io> and (x_y@z-1.org)")).toEqual(["a@b.io", "x_y@z-1.org"]);
    expect(found('{"email":"ana@example.com"}')).toEqual(["ana@example.com"]);
  });

  it("leaves out a sentence's dot before the address and the one after it", () => {
    expect(found("see.john@example.org. Thanks")).toEqual(["see.john@example.org"]);
    expect(found("contact us at .support@example.org")).toEqual(["support@example.org"]);
  });

  it("refuses what is not an address: no TLD, asset names, versions, double dots", () => {
    expect(found("root@localhost")).toEqual([]);
    expect(found("logo@2x.png and icon@3x.webp")).toEqual([]);
    expect(found("lodash@4.17.21")).toEqual([]);
    expect(found("john..doe@example.com")).toEqual([]);
    expect(found("no at sign here")).toEqual([]);
  });
});
