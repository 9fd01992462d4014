import { describe, expect, it } from "vitest";
import { formatCountdown, formatWaitDuration, getDueLabel, getWaitedLabel } from "./format-waiting.js";

const now = Date.parse("2026-01-05T10:00:00Z");
const at = (seconds: number) => new Date(now + seconds * 1000).toISOString();

describe("formatWaitDuration", () => {
  it("says how long, to the unit that matters", () => {
    expect(formatWaitDuration(12_400)).toBe("12 s");
    expect(formatWaitDuration(4 * 60_000 + 59_000)).toBe("4 min");
    expect(formatWaitDuration(65 * 60_000)).toBe("1 h 5 min");
    expect(formatWaitDuration(2 * 3_600_000)).toBe("2 h");
    expect(formatWaitDuration(51 * 3_600_000)).toBe("2 d 3 h");
    expect(formatWaitDuration(-5_000)).toBe("0 s");
  });
});

describe("getWaitedLabel", () => {
  it("counts from when the item began waiting", () => {
    expect(getWaitedLabel(at(-90), now)).toBe("waiting 1 min");
    expect(getWaitedLabel(at(-3), now)).toBe("waiting 3 s");
    expect(getWaitedLabel("not a time", now)).toBe("");
  });
});

describe("formatCountdown", () => {
  it("counts down in minutes and seconds, with hours when needed", () => {
    expect(formatCountdown(42_000)).toBe("0:42");
    expect(formatCountdown(41_100)).toBe("0:42");
    expect(formatCountdown(12 * 60_000 + 5_000)).toBe("12:05");
    expect(formatCountdown(3_600_000 + 2 * 60_000 + 9_000)).toBe("1:02:09");
    expect(formatCountdown(26 * 3_600_000)).toBe("1 d 2 h");
  });
});

describe("getDueLabel", () => {
  it("says what the server will do and in how long", () => {
    expect(getDueLabel(at(299), "reject", now)).toEqual({
      text: "rejects in 4:59",
      urgent: false,
      overdue: false,
    });
    expect(getDueLabel(at(30), "approve", now)).toEqual({
      text: "approves in 0:30",
      urgent: true,
      overdue: false,
    });
    expect(getDueLabel(at(7_200), undefined, now)?.text).toBe("rejects in 2:00:00");
  });

  it("says it is being decided once due, and nothing without a due time", () => {
    expect(getDueLabel(at(-2), "fail", now)).toEqual({ text: "failing now", urgent: true, overdue: true });
    expect(getDueLabel(null, "reject", now)).toBeNull();
    expect(getDueLabel(undefined, undefined, now)).toBeNull();
  });
});
