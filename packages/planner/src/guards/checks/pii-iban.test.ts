import { describe, expect, it } from "vitest";
import { findIbans, IBAN_LENGTHS, isIbanChecksumValid } from "./pii-iban.js";

const found = (text: string) => findIbans(text).map((span) => text.slice(span.start, span.end));

describe("isIbanChecksumValid", () => {
  it("checks ISO 7064 mod 97", () => {
    expect(isIbanChecksumValid("DE89370400440532013000")).toBe(true);
    expect(isIbanChecksumValid("GB82WEST12345698765432")).toBe(true);
    expect(isIbanChecksumValid("FR1420041010050500013M02606")).toBe(true);
    expect(isIbanChecksumValid("DE89370400440532013001")).toBe(false);
    expect(isIbanChecksumValid("GB82WEST12345698765433")).toBe(false);
  });
});

describe("findIbans", () => {
  it("finds IBANs written together or in groups of four, at their country's length", () => {
    expect(found("pay to DE89 3704 0044 0532 0130 00 today")).toEqual(["DE89 3704 0044 0532 0130 00"]);
    expect(found("IBAN: GB82WEST12345698765432.")).toEqual(["GB82WEST12345698765432"]);
    expect(found("NL91ABNA0417164300, BE68539007547034")).toEqual(["NL91ABNA0417164300", "BE68539007547034"]);
    expect(found("NO9386011117947")).toEqual(["NO9386011117947"]);
  });

  it("ends at the country's length when capitals follow", () => {
    expect(found("DE89 3704 0044 0532 0130 00 BIC COBADEFFXXX")).toEqual(["DE89 3704 0044 0532 0130 00"]);
  });

  it("refuses a bad checksum, a wrong length and a country it does not know", () => {
    expect(found("DE89 3704 0044 0532 0130 01")).toEqual([]);
    expect(found("DE89 3704 0044 0532 0130 0")).toEqual([]);
    expect(found("ZZ89370400440532013000")).toEqual([]);
    expect(found("de89370400440532013000")).toEqual([]);
  });

  it("knows the common countries' lengths", () => {
    expect(IBAN_LENGTHS).toMatchObject({
      DE: 22,
      FR: 27,
      GB: 22,
      NL: 18,
      ES: 24,
      IT: 27,
      CH: 21,
      NO: 15,
      MT: 31,
    });
  });
});
