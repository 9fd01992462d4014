import { describe, expect, it } from "vitest";
import { formatApprovalLimit, getApprovalLimitParts, readApprovalLimit } from "./approval-limit.js";

describe("approval time limit", () => {
  it("shows seconds in the largest unit that holds them whole", () => {
    expect(getApprovalLimitParts(7_200)).toEqual({ amount: "2", unit: "h" });
    expect(getApprovalLimitParts(5_400)).toEqual({ amount: "90", unit: "min" });
    expect(getApprovalLimitParts(45)).toEqual({ amount: "45", unit: "s" });
    expect(formatApprovalLimit(3_600)).toBe("1 hour");
    expect(formatApprovalLimit(90)).toBe("90 seconds");
  });

  it("reads an amount in its unit, fractions of a unit included", () => {
    expect(readApprovalLimit("15", "min")).toEqual({ ok: true, value: 900 });
    expect(readApprovalLimit("1.5", "h")).toEqual({ ok: true, value: 5_400 });
    expect(readApprovalLimit(" 2 ", "s")).toEqual({ ok: true, value: 2 });
    expect(readApprovalLimit("720", "h")).toEqual({ ok: true, value: 2_592_000 });
  });

  it("refuses what the spec would refuse, saying what fits", () => {
    expect(readApprovalLimit("", "s")).toEqual({ ok: false, error: "Enter how long to wait." });
    expect(readApprovalLimit("soon", "s")).toEqual({ ok: false, error: '"soon" is not a number.' });
    expect(readApprovalLimit("0", "min")).toEqual({ ok: false, error: "Wait at least 1 second." });
    expect(readApprovalLimit("721", "h")).toEqual({ ok: false, error: "At most 30 days (720 h)." });
    expect(readApprovalLimit("1.5", "s")).toEqual({
      ok: false,
      error: "That is not a whole number of seconds.",
    });
  });
});
