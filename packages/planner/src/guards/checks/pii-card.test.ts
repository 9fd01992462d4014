import { describe, expect, it } from "vitest";
import { findCards, isCardNetworkNumber, isLuhnValid } from "./pii-card.js";

const found = (text: string) => findCards(text).map((span) => text.slice(span.start, span.end));

describe("isLuhnValid", () => {
  it("accepts numbers whose Luhn sum ends in 0 and refuses one digit off", () => {
    expect(isLuhnValid("4111111111111111")).toBe(true);
    expect(isLuhnValid("79927398713")).toBe(true);
    expect(isLuhnValid("4111111111111112")).toBe(false);
    expect(isLuhnValid("79927398710")).toBe(false);
  });
});

describe("isCardNetworkNumber", () => {
  it("wants a network's prefix and one of its lengths", () => {
    expect(isCardNetworkNumber("4111111111111111")).toBe(true); // Visa 16
    expect(isCardNetworkNumber("378282246310005")).toBe(true); // Amex 15
    expect(isCardNetworkNumber("3782822463100050")).toBe(false); // Amex is never 16
    expect(isCardNetworkNumber("5555555555554444")).toBe(true); // Mastercard
    expect(isCardNetworkNumber("2223003122003222")).toBe(true); // Mastercard 2-series
    expect(isCardNetworkNumber("1700000000000")).toBe(false); // a millisecond timestamp
  });
});

describe("findCards", () => {
  it("finds cards written together, in groups of four, and Amex's 4-6-5", () => {
    expect(found("card 4111111111111111 ok")).toEqual(["4111111111111111"]);
    expect(found("pay with 4111 1111 1111 1111.")).toEqual(["4111 1111 1111 1111"]);
    expect(found("MC 5555-5555-5555-4444 exp 12/29")).toEqual(["5555-5555-5555-4444"]);
    expect(found("Amex 3782 822463 10005")).toEqual(["3782 822463 10005"]);
  });

  it("refuses a Luhn-invalid number, a mixed layout and a number inside other digits or words", () => {
    expect(found("card 4111 1111 1111 1112")).toEqual([]);
    expect(found("card 4111 1111-1111 1111")).toEqual([]);
    expect(found("id 94111111111111111119")).toEqual([]);
    expect(found("order A4111111111111111")).toEqual([]);
    expect(found("ts 1700000000000 and 1700000000001")).toEqual([]);
  });

  it("stops a card where a number that follows it begins", () => {
    expect(found("4111 1111 1111 1111 2 items")).toEqual(["4111 1111 1111 1111"]);
  });

  it("leaves an IBAN's BBAN alone even when its digits pass Luhn", () => {
    expect(found("IBAN DE89 3704 0044 0532 0130 01")).toEqual([]);
  });
});
