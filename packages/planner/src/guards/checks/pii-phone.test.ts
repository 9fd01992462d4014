import { describe, expect, it } from "vitest";
import { findPhones } from "./pii-phone.js";

const found = (text: string) => findPhones(text).map((span) => text.slice(span.start, span.end));

describe("findPhones", () => {
  it("finds international numbers, with or without separators", () => {
    expect(found("call +44 20 7946 0958 now")).toEqual(["+44 20 7946 0958"]);
    expect(found("tel: +1 (415) 555-2671")).toEqual(["+1 (415) 555-2671"]);
    expect(found("+33 6 12 34 56 78")).toEqual(["+33 6 12 34 56 78"]);
    expect(found("+14155552671")).toEqual(["+14155552671"]);
    expect(found("+49 (0)30 1234 5678")).toEqual(["+49 (0)30 1234 5678"]);
  });

  it("finds national numbers in groups, with an area code in parentheses, or with a trunk 0", () => {
    expect(found("office 020 7946 0958.")).toEqual(["020 7946 0958"]);
    expect(found("(415) 555-2671")).toEqual(["(415) 555-2671"]);
    expect(found("555.123.4567 or 555-123-4567")).toEqual(["555.123.4567", "555-123-4567"]);
    expect(found("06 12 34 56 78")).toEqual(["06 12 34 56 78"]);
    expect(found("030 12345678")).toEqual(["030 12345678"]);
  });

  it("leaves dates, versions, IP addresses, amounts, ISBNs, IDs and plain digit runs alone", () => {
    for (const text of [
      "on 2024-01-15 at noon",
      "on 15.01.2024",
      "12/03/2024",
      "v1.2.3 and 10.4.22",
      "host 192.168.100.200",
      "budget 1 250 000 EUR",
      "ISBN 978-3-16-148410-0",
      "ISBN 0-306-40615-2",
      "order ORD-12345678",
      "id 4155552671",
      "zip 94105-1234",
      "range 1000-2000",
      "uuid 550e8400-e29b-41d4-a716-446655440000",
      "10:30:45",
    ]) {
      expect(found(text), text).toEqual([]);
    }
  });
});
